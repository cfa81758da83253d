// What every host suite and asset script shares: the one launcher (test/run.mjs, through
// ./launch.mjs), ./suite.mjs (a mocha suite in the host), ./workbench.mjs (the packaged .vsix seen
// through the workbench's status bar), scripts/screenshots.mjs and scripts/start.mjs. A HostRun
// owns one run's temporary folder and every process it starts (code-server, chromium, helpers),
// and tears them all down on its end, on an error, on a signal and, as a last resort, on exit.
// Every code-server it starts asks for a password of its own (codeServerLogin): a VS Code in a
// browser is a terminal as the developer, for as long as a suite runs.
//
// TT_CHROMIUM_PATH names another chromium than Debian's /usr/bin/chromium; it is the one
// environment variable of the harness (test/run.mjs's header lists its options).
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
export const chromiumPath = process.env.TT_CHROMIUM_PATH ?? '/usr/bin/chromium';
/** The system's temp dir, read before any run points TMPDIR into its own folder. */
const systemTmpdir = tmpdir();

/** Fresh user settings: nothing on screen or on the network that a test did not ask for. */
export const baseSettings = {
  'telemetry.telemetryLevel': 'off',
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.enableExperiments': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'security.workspace.trust.enabled': false,
  'git.autofetch': false,
  'git.openRepositoryInParentFolders': 'never',
  'timeTracker.remote.allowWorkspaceHost': true, // code-server's extension host is remote, on this machine: the user's opt-in
};

/** The cookie code-server's login sets and checks on every request. */
export const SESSION_COOKIE = 'code-server-session';

/** Flags every code-server start gets, after --bind-addr. */
const codeServerFlags = [
  '--disable-telemetry',
  '--disable-update-check',
  '--disable-workspace-trust',
  '--disable-getting-started-override',
  '--ignore-last-opened',
];

export function build(title, command, args) {
  console.log(`> ${title}`);
  const result = spawnSync(command, args, { cwd: repoRoot, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${title} failed`);
}

export function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

/** A delay for Promise.race that can be cancelled, so a pending limit does not hold the process open. */
export function timer(ms) {
  const controller = new AbortController();
  const elapsed = delay(ms, undefined, { signal: controller.signal }).then(
    () => true,
    () => new Promise(() => {}),
  );
  return { elapsed, cancel: () => controller.abort() };
}

export function prefixLines(prefix, text) {
  return text.replace(/^(?=.)/gm, prefix);
}

/**
 * One harness run. `name` starts its messages ("extension tests"), `countLabel` its count line
 * ("extension: N passed, N failed"; none without it, as for `npm start`); `tempPrefix` names its
 * folder in the system's temp dir. Several runs may follow each other in one process (the
 * launcher runs one per suite): each removes its signal and exit handlers once it has cleaned up.
 */
export class HostRun {
  constructor({ name, countLabel, tempPrefix, verbose = false }) {
    Object.assign(this, { name, countLabel, tempPrefix, verbose });
    // Marks every process of this run, so the final sweep finds even those that left the group.
    this.runId = randomUUID();
    this.runDir = undefined;
    /** Started processes, each in its own group; stopped in reverse order. */
    this.children = [];
    this.browser = undefined;
    this.cleaning = undefined;
    this.interrupted = false;
    this.started = Date.now();

    this.handlers = [];
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
      this.listen(signal, () => {
        this.interrupted = true;
        console.error(`\n${name}: ${signal}, cleaning up...`);
        void this.cleanup().finally(() => {
          if (countLabel !== undefined) console.log(`${countLabel}: 0 passed, 1 failed`);
          process.exit(signal === 'SIGINT' ? 130 : 143);
        });
      });
    }
    // Last resort if something exits without awaiting cleanup(): nothing may outlive the run.
    this.listen('exit', () => {
      for (const child of this.children) killGroup(child, 'SIGKILL');
      this.sweep();
      if (this.runDir !== undefined) rmSync(this.runDir, { recursive: true, force: true });
    });
  }

  listen(event, handler) {
    process.on(event, handler);
    this.handlers.push([event, handler]);
  }

  seconds() {
    return ((Date.now() - this.started) / 1000).toFixed(1);
  }

  /**
   * Runs `main` (which resolves to `{ passes, failures }`), always cleans up, prints the time and
   * the count line, and sets the exit code: 0 only with no failures and at least one pass.
   * Resolves to `{ passes, failures, seconds }` for a caller that runs more than one.
   */
  async execute(main) {
    let outcome;
    try {
      outcome = await main();
    } catch (error) {
      // The message carries the fix (an apt package, a missing build); the stack only when verbose.
      const text = error instanceof Error ? ((this.verbose ? error.stack : undefined) ?? error.message) : String(error);
      if (!this.interrupted) console.error(`\n${this.name} could not run: ${text}`);
      outcome = { passes: 0, failures: 1 };
    } finally {
      await this.cleanup();
    }
    const seconds = Number(this.seconds());
    console.log(`\n${this.name} took ${seconds} s`);
    console.log(`${this.countLabel}: ${outcome.passes} passed, ${outcome.failures} failed`);
    process.exitCode = outcome.failures === 0 && outcome.passes > 0 ? 0 : 1;
    return { passes: outcome.passes, failures: outcome.failures, seconds };
  }

  /**
   * The run's folder with one subfolder per name, and the environment that keeps VS Code's IPC
   * sockets, playwright's browser profile and chromium's crash reports inside it instead of
   * piling up in /tmp and ~/.config.
   */
  makeDirs(names) {
    this.runDir = mkdtempSync(join(systemTmpdir, this.tempPrefix));
    const dirs = Object.fromEntries(
      [...new Set(['tmp', 'config', 'data', 'cache', 'user-data', 'extensions', ...names])].map((name) => [
        name,
        join(this.runDir, name),
      ]),
    );
    for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
    const isolation = {
      TMPDIR: dirs.tmp,
      XDG_CONFIG_HOME: dirs.config,
      XDG_DATA_HOME: dirs.data,
      XDG_CACHE_HOME: dirs.cache,
      XDG_RUNTIME_DIR: dirs.tmp,
      TT_EXTENSION_RUN_ID: this.runId,
    };
    // os.tmpdir() reads TMPDIR on each call; playwright makes its profile folder there. Put back
    // on cleanup, so that the next run in this process does not start in a removed folder.
    this.tmpdirBefore = process.env.TMPDIR;
    process.env.TMPDIR = dirs.tmp;
    const configFile = join(this.runDir, 'config.yaml');
    writeFileSync(configFile, '');
    return { runDir: this.runDir, dirs, isolation, configFile };
  }

  /**
   * Makes `locale` the display language without a language pack, as none can be downloaded
   * offline. code-server takes the language from its config file, and VS Code's own translations
   * from <user-data-dir>/languagepacks.json, which installing a language pack would write. Pointing
   * it at an empty translation keeps VS Code's own strings English, while `vscode.env.language` is
   * `locale` and extensions get their bundles and package.nls.<locale>.json. That is what the
   * German suite checks (verified with code-server 4.100.3).
   */
  useDisplayLanguage({ dirs, configFile }, locale) {
    const translations = join(this.runDir, `vscode.${locale}.i18n.json`);
    writeFileSync(translations, JSON.stringify({ version: '1.0.0', contents: {} }));
    writeFileSync(configFile, `locale: ${locale}\n`);
    const pack = {
      // Names the folder of generated messages; any stable value will do.
      hash: createHash('md5').update(`tt-tests-${locale}`).digest('hex'),
      extensions: [{ extensionIdentifier: { id: `tt-tests.language-pack-${locale}` }, version: '0.0.0' }],
      translations: { vscode: translations },
      label: locale,
    };
    writeFileSync(join(dirs['user-data'], 'languagepacks.json'), JSON.stringify({ [locale]: pack }));
  }

  /**
   * Writes <user-data-dir>/User/settings.json: the base settings and `extra`; and the settings of
   * `extra` the manifest scopes to the machine (`timeTracker.port`, say) to Machine/settings.json
   * too: code-server's window reads a machine setting from the user's file only until the first
   * settings change is written or a second window connects, then from the remote machine's alone
   * (the port falls back to its default, and the window goes offline).
   */
  writeUserSettings(dirs, extra = {}) {
    mkdirSync(join(dirs['user-data'], 'User'), { recursive: true });
    writeFileSync(
      join(dirs['user-data'], 'User', 'settings.json'),
      `${JSON.stringify({ ...baseSettings, ...extra }, null, 2)}\n`,
    );
    const properties = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).contributes.configuration
      .properties;
    const machine = Object.fromEntries(Object.entries(extra).filter(([key]) => properties[key]?.scope === 'machine'));
    if (Object.keys(machine).length === 0) return;
    mkdirSync(join(dirs['user-data'], 'Machine'), { recursive: true });
    writeFileSync(join(dirs['user-data'], 'Machine', 'settings.json'), `${JSON.stringify(machine, null, 2)}\n`);
  }

  /** The arguments that point code-server at this run's folders. */
  codeServerArgs({ dirs, configFile }) {
    return ['--config', configFile, '--user-data-dir', dirs['user-data'], '--extensions-dir', dirs.extensions];
  }

  /**
   * Starts a process in its own group (so one kill reaches its helpers), owned by this run.
   * Returns the child, its output so far, and a promise of its exit.
   */
  spawnOwned(label, command, args, { cwd, env }) {
    const child = spawn(command, args, {
      cwd,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env, TT_EXTENSION_RUN_ID: this.runId },
    });
    this.children.push(child);
    const output = [];
    const listeners = new Set();
    for (const stream of [child.stdout, child.stderr]) {
      stream.setEncoding('utf8');
      stream.on('data', (chunk) => {
        output.push(chunk);
        if (this.verbose) process.stdout.write(prefixLines(`[${label}] `, chunk));
        for (const listener of listeners) listener();
      });
    }
    const exited = new Promise((resolveExit) => child.once('exit', (code, signal) => resolveExit({ code, signal })));
    const text = () => output.join('');
    return {
      child,
      exited,
      text,
      /** Prints what the process said, unless verbose mode has already shown it. */
      show: () => {
        const said = text()
          .replace(/\n\s*\n/g, '\n')
          .trim();
        if (!this.verbose && said !== '') console.log(prefixLines(`[${label}] `, said));
      },
      /** Resolves with the match once the output matches; rejects on exit or after `ms`. */
      waitFor: (pattern, ms) =>
        new Promise((resolveMatch, reject) => {
          const limit = timer(ms);
          const done = (settle) => {
            listeners.delete(check);
            limit.cancel();
            settle();
          };
          const check = () => {
            const match = pattern.exec(text());
            if (match) done(() => resolveMatch(match));
          };
          void limit.elapsed.then(() =>
            done(() => reject(new Error(`${label} did not print ${String(pattern)} within ${ms / 1000} s`))),
          );
          void exited.then(({ code, signal }) =>
            done(() => reject(new Error(`${label} exited (${code ?? signal}) before it printed ${String(pattern)}`))),
          );
          listeners.add(check);
          check();
        }),
    };
  }

  /**
   * Starts code-server on a free port and waits until it answers /healthz (which code-server
   * answers without a login). It always asks for a password (codeServerLogin): a new random one
   * unless `password` is given (`npm start` prints its own), kept out of every message;
   * `welcomeText` heads its login page. `workspaceTrust`: leave Workspace Trust on, so a folder
   * opens in Restricted Mode (the settings must turn it on too: `security.workspace.trust.enabled`).
   * Resolves to the process (spawnOwned's), its `authority` and `logIn(context)`, which logs a
   * playwright BrowserContext in before a page opens the workbench (one form POST, as code-server's
   * login page sends it).
   */
  async startCodeServer(
    entry,
    {
      dirs,
      configFile,
      cwd,
      env,
      until,
      password = randomBytes(16).toString('hex'),
      welcomeText,
      workspaceTrust = false,
      announce = () => {},
    },
  ) {
    const authority = `127.0.0.1:${await freePort()}`;
    announce(authority);
    const auth = codeServerLogin(password, { welcomeText });
    const flags = workspaceTrust
      ? codeServerFlags.filter((flag) => flag !== '--disable-workspace-trust')
      : codeServerFlags;
    const server = this.spawnOwned(
      'code-server',
      process.execPath,
      [entry, ...this.codeServerArgs({ dirs, configFile }), ...auth.args, '--bind-addr', authority, ...flags],
      {
        cwd,
        env: {
          ...env,
          ...auth.env,
          // No marketplace lookups: the machine is offline and the tests must not depend on it.
          EXTENSIONS_GALLERY: '{}',
        },
      },
    );
    try {
      await waitForHealth(`http://${authority}/healthz`, server.exited, Math.min(until, Date.now() + 60_000));
    } catch (error) {
      server.show();
      throw error;
    }
    return { ...server, authority, logIn: (context) => logIn(context, authority, password) };
  }

  /** Debian's chromium, headless, with this run's environment. */
  async launchBrowser(isolation) {
    this.browser = await chromium.launch({
      executablePath: chromiumPath,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-quic',
        '--no-first-run',
      ],
      env: { ...process.env, ...isolation },
      // This run kills code-server on these signals; playwright must not exit the process first.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    return this.browser;
  }

  /** Processes that carry this run's id in their environment: code-server, chromium, and helpers. */
  ownProcesses() {
    const needle = `TT_EXTENSION_RUN_ID=${this.runId}`;
    const pids = [];
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
      try {
        if (readFileSync(`/proc/${name}/environ`, 'latin1').split('\0').includes(needle)) pids.push(Number(name));
      } catch {
        // Exited meanwhile, or not ours to read.
      }
    }
    return pids;
  }

  /** Kills what escaped the process groups (a shell in its own session, say). */
  sweep() {
    const pids = this.ownProcesses();
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Exited meanwhile.
      }
    }
    return pids.length;
  }

  cleanup() {
    this.cleaning ??= (async () => {
      const started = this.ownProcesses();
      const browser = this.browser;
      this.browser = undefined;
      if (browser !== undefined) {
        const limit = timer(5000);
        await Promise.race([browser.close().catch(() => undefined), limit.elapsed]);
        limit.cancel();
      }
      for (const child of [...this.children].reverse()) await stopGroup(child);
      const stragglers = this.sweep();
      if (stragglers > 0) console.error(`${this.name}: killed ${stragglers} leftover process(es) of this run.`);
      await waitUntilGone(started, 5000);
      if (this.runDir !== undefined) {
        rmSync(this.runDir, { recursive: true, force: true });
        this.runDir = undefined;
        if (this.tmpdirBefore === undefined) delete process.env.TMPDIR;
        else process.env.TMPDIR = this.tmpdirBefore;
      }
      // An interrupted run exits from its own signal handler, which must stay until then.
      if (!this.interrupted) for (const [event, handler] of this.handlers.splice(0)) process.off(event, handler);
    })();
    return this.cleaning;
  }
}

/**
 * code-server's password login for `password`: without it code-server gives nothing but its login
 * page (not the workbench, its files, a websocket or its port proxy), whoever asks and under
 * whatever host name, so neither another local user nor a DNS-rebinding page gets a VS Code with
 * a terminal. The login is one form POST to /login, which sets the `code-server-session` cookie.
 * The password reaches code-server only as its SHA-256 in HASHED_PASSWORD, in the environment:
 * never on a command line, and code-server removes it from its environment before it starts
 * anything. SHA-256, not argon2 (nor PASSWORD, which code-server hashes with argon2): code-server
 * checks the cookie on every request, and with argon2 the start check's browser waited twice as
 * long for the status bar (32 s rather than 15 s); a random 128-bit password needs no slow hash.
 * A PASSWORD in the user's environment is not passed on: it is not this code-server's.
 * `welcomeText` is inserted in the login page as HTML as it is: plain words only.
 */
export function codeServerLogin(password, { welcomeText } = {}) {
  return {
    args: ['--auth', 'password', ...(welcomeText === undefined ? [] : ['--welcome-text', welcomeText])],
    env: { HASHED_PASSWORD: createHash('sha256').update(password).digest('hex'), PASSWORD: undefined },
  };
}

/**
 * Logs `context` in to code-server at `authority` through its own login route, as its login page
 * does: the answer's session cookie goes into the context's jar, which every page of the context
 * (a second window too) sends. A message never holds the password, whatever playwright put in it.
 */
async function logIn(context, authority, password) {
  let status;
  try {
    const response = await context.request.post(`http://${authority}/login`, {
      form: { password },
      maxRedirects: 0,
      timeout: 30_000,
    });
    status = response.status();
    await response.dispose();
  } catch (error) {
    const said = (error instanceof Error ? error.message : String(error)).split(password).join('…');
    throw new Error(`could not log in to code-server on ${authority}: ${said}`);
  }
  const cookies = await context.cookies(`http://${authority}/`);
  if (status !== 302 || !cookies.some(({ name }) => name === SESSION_COOKIE)) {
    throw new Error(`code-server on ${authority} answered the login with ${status} and no ${SESSION_COOKIE} cookie`);
  }
}

/** SIGTERM to the group, up to 3 s to go, then SIGKILL. */
export async function stopGroup(child) {
  const gone = new Promise((resolveGone) => {
    if (child.exitCode !== null || child.signalCode !== null) resolveGone();
    else child.once('exit', () => resolveGone());
  });
  killGroup(child, 'SIGTERM');
  const limit = timer(3000);
  await Promise.race([gone, limit.elapsed]);
  limit.cancel();
  killGroup(child, 'SIGKILL');
}

/** By group, not by leader: helpers may outlive a code-server that has already exited. */
function killGroup(child, signal) {
  if (child?.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

async function waitForHealth(url, exited, until) {
  let gone;
  void exited.then(({ code, signal }) => (gone = `code-server exited before it was ready (${code ?? signal})`));
  while (Date.now() < until) {
    if (gone !== undefined) throw new Error(gone);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await delay(100);
  }
  throw new Error(`code-server did not answer ${url} in time`);
}

/** Killed children stay in the process table until reaped; wait so that a `ps` afterwards is clean. */
async function waitUntilGone(pids, ms) {
  const until = Date.now() + ms;
  while (pids.some((pid) => existsSync(`/proc/${pid}`)) && Date.now() < until) await delay(100);
}
