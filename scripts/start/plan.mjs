// The pure half of `npm start` (scripts/start.mjs): its arguments, where the demo app announces itself, the command
// lines for code-server's workbench and for a desktop `code`, the heading of code-server's login page and what is
// printed (the login itself is every host run's: codeServerLogin in test/extension/host/common.mjs). No I/O, so
// test/start/check.mjs checks every decision here without starting anything.
import { delimiter, join, sep } from 'node:path';
import { parseArgs } from 'node:util';

export const USAGE = `Usage: npm start [-- options]

Builds the extension, starts the reference server with demo data and VS Code (code-server, in
your browser) with this repository open and the extension connected, and prints the URL to open
and the password code-server asks for there (a new one each time). In a terminal, keys show the
states a user meets when something goes wrong: o takes the demo app offline, l locks its license,
b starts a break, t replaces its token (each again to undo), h lists them. q or Ctrl-C stops
everything it started.

  --desktop     open a desktop VS Code (\`code\` on PATH) instead of code-server
  --lang <id>   show the extension in this language (\`de\`: German; default \`en\`), with no
                language pack: VS Code's own menus stay English
  --restricted  open a sample repository whose settings hold links, untrusted (Restricted Mode),
                instead of this repository: what a stranger's clone shows
  --no-build    skip the build (dist/ is already fresh)
  --verbose     also print what code-server and the server say
  --help        print this text`;

/**
 * Where the app's VS Code integration writes its capability file under a home folder: the second
 * of the places the extension searches (CAPABILITY_FILE_LOCATIONS in src/protocol/capability.ts,
 * the app's name after its rebrand). The start check fails if the two ever disagree: the
 * extension would not find the demo app.
 */
export const CAPABILITY_FILE_IN_HOME = ['Library', 'Containers', 'com.mattes.clessira', 'Data', 'api-endpoint.json'];

/** English, which needs no translation files, and the languages `names` (file names) translate both halves into. */
export function startLanguages({ root, l10n }) {
  const of = (names, pattern) =>
    names.map((name) => pattern.exec(name)?.[1]).filter((language) => language !== undefined);
  const manifest = of(root, /^package\.nls\.([\w-]+)\.json$/);
  return [
    'en',
    ...of(l10n, /^bundle\.l10n\.([\w-]+)\.json$/)
      .filter((language) => manifest.includes(language))
      .sort(),
  ];
}

/**
 * `{ kind: 'run', options }`, `{ kind: 'help' }` or `{ kind: 'error', message }` (one sentence).
 * `languages`: what --lang accepts (startLanguages); a language the extension has no
 * translation for would show English while claiming another language, so it is refused.
 */
export function parseStartArgs(argv, languages = ['en']) {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        desktop: { type: 'boolean', default: false },
        lang: { type: 'string', default: 'en' },
        restricted: { type: 'boolean', default: false },
        'no-build': { type: 'boolean', default: false },
        verbose: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    }));
  } catch (error) {
    return {
      kind: 'error',
      message: `${error instanceof Error ? error.message : String(error)}; run \`npm start -- --help\` for the options.`,
    };
  }
  if (values.help) return { kind: 'help' };
  if (!languages.includes(values.lang)) {
    return {
      kind: 'error',
      message: `--lang ${JSON.stringify(values.lang)} is not a language of the extension; it has ${languages.join(', ')}.`,
    };
  }
  return {
    kind: 'run',
    options: {
      desktop: values.desktop,
      lang: values.lang,
      restricted: values.restricted,
      build: !values['no-build'],
      verbose: values.verbose,
    },
  };
}

/**
 * The URL that opens `folder` in code-server at `authority` with the extension at `extensionPath`
 * loaded in development mode: the same payload the host tests pass, without a tests path.
 */
export function workbenchUrl(authority, { folder, extensionPath }) {
  const remote = (path) => `vscode-remote://${authority}${path.split(sep).map(encodeURIComponent).join('/')}`;
  const payload = [['extensionDevelopmentPath', remote(stripTrailingSeparator(extensionPath))]];
  return `http://${authority}/?folder=${encodeURIComponent(stripTrailingSeparator(folder))}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

/**
 * The heading of code-server's login page: it says where the password is (code-server's own line
 * below it names only HASHED_PASSWORD). Inserted as HTML as it is: plain words only.
 */
export const LOGIN_HEADING = 'Log in with the password npm start printed next to the URL';

/**
 * What `npm start` prints once code-server is ready, in one write so that whoever reads the URL
 * has the rest too: the URL and the password on lines of their own (easy to copy; the password
 * only here, never in a file or a log).
 */
export function codeServerReady({ url, password, seconds, runDir }) {
  return [
    `\nOpen this URL in a browser and log in with the password below (ready in ${seconds} s):`,
    '',
    `  ${url}`,
    '',
    `  password: ${password}`,
    '',
    `Ctrl-C stops code-server and the demo app, and removes ${runDir}.`,
  ].join('\n');
}

/**
 * Arguments for a desktop `code`: a window of its own profile (so it is a new instance that loads
 * this checkout, not a tab of a running VS Code), the extension from this checkout, every
 * installed extension off, no trust prompt or welcome page, and `--wait` so that closing the
 * window ends `npm start`. A `locale` but English is VS Code's --locale (the profile's
 * languagepacks.json, HostRun#useDisplayLanguage, stands in for the language pack). `folder`: what
 * opens (this checkout unless --restricted), with Workspace Trust on when `restricted`.
 */
export function desktopArgs({
  repoRoot,
  userDataDir,
  extensionsDir,
  locale = 'en',
  folder = repoRoot,
  restricted = false,
}) {
  const root = stripTrailingSeparator(repoRoot);
  return [
    ...(locale === 'en' ? [] : ['--locale', locale]),
    '--new-window',
    '--wait',
    `--extensionDevelopmentPath=${root}`,
    '--user-data-dir',
    userDataDir,
    '--extensions-dir',
    extensionsDir,
    '--disable-extensions',
    ...(restricted ? [] : ['--disable-workspace-trust']),
    '--skip-welcome',
    '--skip-release-notes',
    stripTrailingSeparator(folder),
  ];
}

/** The first `command` in the folders of `path` (a PATH value) for which `isFile` holds, or undefined. */
export function findOnPath(command, path, isFile) {
  for (const dir of (path ?? '').split(delimiter)) {
    if (dir !== '' && isFile(join(dir, command))) return join(dir, command);
  }
  return undefined;
}

export const NO_DESKTOP_CODE =
  'No `code` command on PATH: install VS Code and its shell command (Command Palette → "Shell Command: Install \'code\' command in PATH"), or run `npm start` without --desktop to use VS Code in the browser.';

/** The user settings that open a folder in Restricted Mode without the trust prompt (as the `restricted` suite's). */
export const RESTRICTED_SETTINGS = {
  'security.workspace.trust.enabled': true,
  'security.workspace.trust.startupPrompt': 'never',
};

/** The sample repository's settings with --restricted: a branch link and a folder link, which act only once trusted. */
export function sampleRepositorySettings(folderName) {
  return {
    'timeTracker.links': [
      { branch: 'feature/**', activity: '{ticket}', createIfMissing: true },
      { folder: folderName, activity: 'Sample project', createIfMissing: true },
    ],
  };
}

function stripTrailingSeparator(path) {
  return path.length > 1 && path.endsWith(sep) ? path.slice(0, -1) : path;
}
