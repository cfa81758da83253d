// Type-aware linting. Floating promises are errors (fire-and-forget is written `void promise`).
// The layers of docs/ARCHITECTURE.md are enforced here, one `no-restricted-imports` block per
// folder (`LAYERS` below; test/unit/lint/layers.test.ts shows each forbidden import is reported):
// platform and protocol import nothing of ours; client and server only protocol and platform; git
// only platform; the tracker never the server, git or the extension, and inside it each part imports
// only the parts its row of TRACKER_PARTS lists; only src/extension
// (and the in-host tests) import `vscode`. Every layer
// may import src/platform, the Node-only helpers (lock, atomic write, bounded read…).
// Short functions and files are rules too (`max-lines-per-function`, `max-lines` for src/), and lines of 120
// (Prettier's width, which it does not apply to comments: `max-len`).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const VSCODE = {
  name: 'vscode',
  message: 'Only src/extension/ and test/extension/ may import vscode: everything else runs under plain Node.',
};

/** A relative import of one of `folders` (from any depth: `../client/x`, `./../../server`). */
function folders(names, message) {
  return { regex: `^(\\.\\.?/)+(${names.join('|')})(/|$)`, message };
}

/** The globals that take a delay: src/ sets them only through src/platform/timers.ts. */
export const TIMERS = ['setTimeout', 'setInterval'];

const NOT_TESTS = folders(['test'], 'Nothing in src/ imports the tests: they are not shipped.');

/**
 * The tracker's parts: each feature's or surface's folder, and the small files several share, with
 * what each may import of the others (outside the tracker, the tracker block's rules hold). One row
 * per part: a new folder is one line here, and test/unit/lint/layers.test.ts fails until it has it.
 * The arrows point from a surface to what it shows, and from a feature to the model.
 */
export const TRACKER_PARTS = {
  // Shared files: ids.ts imports nothing (its own block below).
  duration: [],
  markup: ['ids'],
  // The session's decisions and the state: everything else points down to it.
  model: [],
  settings: [],
  queue: ['model'],
  onboarding: ['ids', 'model'],
  branchTime: ['duration', 'model', 'settings'],
  links: ['branchTime', 'ids', 'markup', 'model', 'settings'],
  statusBar: ['duration', 'ids', 'links', 'markup', 'model'],
  advice: ['ids', 'markup', 'model', 'statusBar'],
  pickers: ['duration', 'ids', 'model'],
  // The app's own extension beside this one: who reports branch switches, what is said once.
  coexistence: [],
  // What the editor agent's tools answer and ask: the status bar's words, the ledger's periods.
  agentTools: ['branchTime', 'duration', 'markup', 'pickers'],
};
const TRACKER_FILES = ['ids', 'duration', 'markup'];

/** One block per tracker part: everything of the tracker it does not list is refused. */
function trackerBlock(part, allowed) {
  const refused = ['ids', ...Object.keys(TRACKER_PARTS)].filter((name) => name !== part && !allowed.includes(name));
  return {
    files: [TRACKER_FILES.includes(part) ? `src/tracker/${part}.ts` : `src/tracker/${part}/**/*.ts`],
    paths: [VSCODE],
    patterns: [
      folders(
        ['server', 'git', 'extension', ...refused],
        `src/tracker/${part} imports ${allowed.length === 0 ? 'no other part of the tracker' : `of the tracker only ${allowed.join(', ')}`} (TRACKER_PARTS in eslint.config.mjs): the arrows point down.`,
      ),
    ],
  };
}

/**
 * Per folder, what it must not import. A later flat-config block's `no-restricted-imports`
 * replaces an earlier one for the same file, so each block repeats the `vscode` rule; the most
 * specific folders come last.
 */
export const LAYERS = [
  { files: ['src/**/*.ts'], paths: [VSCODE], patterns: [] },
  {
    files: ['src/platform/**/*.ts'],
    paths: [VSCODE],
    patterns: [
      folders(
        ['protocol', 'client', 'server', 'git', 'tracker', 'extension'],
        'src/platform imports nothing of ours: it is the bottom layer every other one uses.',
      ),
    ],
  },
  {
    files: ['src/protocol/**/*.ts'],
    paths: [VSCODE],
    patterns: [
      folders(
        ['platform', 'client', 'server', 'git', 'tracker', 'extension'],
        'src/protocol imports nothing of ours: the client and the server share it.',
      ),
    ],
  },
  {
    files: ['src/client/**/*.ts'],
    paths: [VSCODE],
    patterns: [
      folders(
        ['server', 'git', 'tracker', 'extension'],
        'src/client imports only src/protocol and src/platform: it ships alone as dist/client.js.',
      ),
    ],
  },
  {
    files: ['src/server/**/*.ts'],
    paths: [VSCODE],
    patterns: [
      folders(
        ['client', 'git', 'tracker', 'extension'],
        'src/server imports only src/protocol and src/platform: it is the app, not a user of our client.',
      ),
    ],
  },
  {
    files: ['src/git/**/*.ts'],
    paths: [VSCODE],
    patterns: [
      folders(
        ['protocol', 'client', 'server', 'tracker', 'extension'],
        'src/git imports only src/platform: it watches a file system given to it.',
      ),
    ],
  },
  {
    files: ['src/tracker/**/*.ts'],
    paths: [VSCODE],
    patterns: [
      folders(
        ['server', 'git', 'extension'],
        'src/tracker never imports the server, git or the extension: it is the editor-free logic they do not reach into.',
      ),
    ],
  },
  {
    files: ['src/tracker/ids.ts'],
    paths: [VSCODE],
    patterns: [{ regex: '^\\.', message: 'src/tracker/ids.ts imports nothing: every part reads it.' }],
  },
  ...Object.entries(TRACKER_PARTS).map(([part, allowed]) => trackerBlock(part, allowed)),
  {
    files: ['src/extension/**/*.ts'],
    paths: [],
    patterns: [
      folders(
        ['server'],
        'src/extension never imports the reference server: it talks to the app only through src/client.',
      ),
    ],
  },
  {
    files: ['test/**/*.ts'],
    paths: [VSCODE],
    patterns: [],
  },
  {
    files: ['test/extension/**/*.ts'],
    paths: [],
    patterns: [],
  },
];

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', '.test-cache/**'] },
  js.configs.recommended,
  {
    files: ['**/*.ts'],
    extends: [...tseslint.configs.strictTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
      '@typescript-eslint/no-confusing-void-expression': 'off',
      '@typescript-eslint/no-unnecessary-condition': ['error', { allowConstantLoopConditions: true }],
      // The activation bundle must not pull in what a file imports only for its types; the rule names the line.
      // `typeof import('./core')` stays allowed: it is how a lazily loaded bundle's types are named without loading it.
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
    },
  },
  {
    // One job per function and per file (issue 21): past these a function or a file is asking to be split.
    files: ['src/**/*.ts'],
    rules: {
      'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }],
      'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }],
    },
  },
  {
    // Prettier wraps the code at 120 but not comments or a long string: the comments are held to the
    // same width here, and a sentence the user reads stays one string to find (strings and URLs aside).
    files: ['**/*.ts', '**/*.mjs'],
    rules: {
      'max-len': [
        'error',
        { code: 120, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true, ignoreUrls: true },
      ],
    },
  },
  {
    // Every timer through src/platform/timers.ts, which bounds its delay: Node fires a timer asked
    // for more than 2^31-1 ms after 1 ms, and a setting or an answer can ask for that.
    files: ['src/**/*.ts'],
    ignores: ['src/platform/timers.ts'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...TIMERS.map((name) => ({
          name,
          message: `${name} is set through src/platform/timers.ts (later, every, pause, Timers), which bounds the delay.`,
        })),
      ],
    },
  },
  ...LAYERS.map(({ files, paths, patterns }) => ({
    files,
    rules: {
      'no-restricted-imports': [
        'error',
        { paths, patterns: files[0].startsWith('src/') ? [...patterns, NOT_TESTS] : patterns },
      ],
    },
  })),
  {
    files: ['test/**/*.ts'],
    rules: {
      // mocha's describe/it return values are not promises to await.
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'mocha', name: ['describe', 'it'] }] },
      ],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: {
      globals: {
        console: 'readonly',
        process: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        fetch: 'readonly',
        AbortSignal: 'readonly',
        AbortController: 'readonly',
      },
    },
  },
);
