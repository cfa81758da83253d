// The app's own VS Code extension (NowDoingApp/vscode, MIT) beside ours in `npm run bench -- extension
// --peer <path.vsix>`: its install into a host of its own, the app as it finds it (a Unix socket and the
// capability file under $HOME, PROTOCOL.md §8), and the measures both extensions get the same way: the
// time from a window's start to the first correct status bar text, and the JavaScript its bundles
// loaded by then. Nothing of the peer's code is in this repository: the bench takes a .vsix built
// from the peer's own repository (PEER_HOW_TO).
/* global document, window, performance, MutationObserver */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

export const PEER_HOW_TO = `To measure the app's own extension beside ours, build its .vsix and pass its path:
    git clone https://github.com/NowDoingApp/vscode.git nowdoing-vscode && cd nowdoing-vscode
    npm install && npx @vscode/vsce package        # runs its vscode:prepublish (typecheck + bundle)
    npm run bench -- extension --peer /path/to/nowdoing-vscode-<version>.vsix   (or TT_BENCH_PEER_VSIX=…)`;

/** Where the app's VS Code integration writes its capability file, under the home folder (PROTOCOL.md §8). */
const CAPABILITY_FILE = join('Library', 'Containers', 'com.mattes.nowdoing', 'Data', 'api-endpoint.json');

/**
 * The .vsix path from `--peer` or TT_BENCH_PEER_VSIX; undefined (with the way to build one printed) when neither names
 * one.
 */
export function peerVsixFrom(option) {
  const path = typeof option === 'string' && option !== '' ? option : process.env.TT_BENCH_PEER_VSIX;
  if (path === undefined || path === '') {
    console.log(`> no peer: the app's own extension is not measured this run.\n${PEER_HOW_TO}`);
    return undefined;
  }
  if (!existsSync(path)) throw new Error(`--peer ${path}: no such file.\n${PEER_HOW_TO}`);
  return path;
}

/**
 * Installs the peer's .vsix into its host's extensions folder; resolves to its id (publisher.name) and install folder.
 */
export function installPeer(run, { entry, vsix, dirs, configFile, isolation }) {
  // The folder the install adds: the extensions folder may hold ours already (the coexist test).
  const before = new Set(readdirSync(dirs.extensions));
  const result = spawnSync(
    process.execPath,
    [entry, ...run.codeServerArgs({ dirs, configFile }), '--install-extension', vsix, '--force'],
    { encoding: 'utf8', env: { ...process.env, ...isolation, EXTENSIONS_GALLERY: '{}' }, timeout: 60_000 },
  );
  const folder = readdirSync(dirs.extensions).find(
    (name) => !before.has(name) && existsSync(join(dirs.extensions, name, 'package.json')),
  );
  if (result.status !== 0 || folder === undefined)
    throw new Error(
      `code-server --install-extension ${vsix} failed (${result.status ?? result.signal ?? result.error?.message}): ` +
        `${result.stdout ?? ''}${result.stderr ?? ''}`.trim(),
    );
  const manifest = JSON.parse(readFileSync(join(dirs.extensions, folder, 'package.json'), 'utf8'));
  console.log(`  the peer installed as ${folder} (${manifest.publisher}.${manifest.name} ${manifest.version})`);
  return {
    id: `${manifest.publisher}.${manifest.name}`,
    version: manifest.version,
    folder: join(dirs.extensions, folder),
  };
}

/**
 * The app as a user's extension finds it by default: the reference server listening on a Unix socket and
 * announcing it in the capability file under `home` (the host's HOME). Both ours and the peer reach it so,
 * each its own server (the peer's signs with the X-NowDoing-* headers). A short socket folder of its own:
 * a socket path has about 100 bytes at most. `close()` closes the server too.
 */
export async function listenAsTheApp(server, home) {
  const capabilityFile = join(home, CAPABILITY_FILE);
  mkdirSync(join(capabilityFile, '..'), { recursive: true });
  const socketFolder = mkdtempSync(join(tmpdir(), 'tt-app-'));
  await server.listenOnSocket(join(socketFolder, 'api.sock'), { capabilityFile });
  return {
    capabilityFile,
    close: async () => {
      await server.close();
      rmSync(socketFolder, { recursive: true, force: true });
    },
  };
}

/**
 * Reads an extension's status bar items in the page: each item's text with its icons written back as
 * `$(name)`, the way the extension set it. Runs in the page.
 */
function readItems(prefix) {
  return [...document.querySelectorAll('.statusbar-item')]
    .filter((element) => element.id.toLowerCase().startsWith(prefix.toLowerCase()))
    .map((element) => {
      const copy = element.cloneNode(true);
      for (const icon of copy.querySelectorAll('.codicon')) {
        const name = [...icon.classList].find((name) => name.startsWith('codicon-'))?.slice('codicon-'.length);
        icon.replaceWith(name === undefined ? '' : `$(${name}) `);
      }
      return copy.textContent.replace(/\s+/g, ' ').trim();
    });
}

/** Waits until one of the items whose DOM id starts with `prefix` matches `pattern`; resolves with its text. */
export async function waitForItem(page, prefix, pattern, ms) {
  const handle = await page
    .waitForFunction(
      ({ prefix, source }) => {
        // readItems, again: a function that runs in the page takes nothing from this module.
        const items = [...document.querySelectorAll('.statusbar-item')]
          .filter((element) => element.id.toLowerCase().startsWith(prefix.toLowerCase()))
          .map((element) => {
            const copy = element.cloneNode(true);
            for (const icon of copy.querySelectorAll('.codicon')) {
              const name = [...icon.classList].find((name) => name.startsWith('codicon-'))?.slice('codicon-'.length);
              icon.replaceWith(name === undefined ? '' : `$(${name}) `);
            }
            return copy.textContent.replace(/\s+/g, ' ').trim();
          });
        return items.find((text) => new RegExp(source).test(text)) ?? false;
      },
      { prefix, source: pattern.source },
      { timeout: ms, polling: 100 },
    )
    .catch(() => undefined);
  if (handle !== undefined) return handle.jsonValue();
  const shows = await page.evaluate(readItems, prefix).catch(() => []);
  const all = await page
    .evaluate(() => [...document.querySelectorAll('.statusbar-item')].map((element) => element.id))
    .catch(() => []);
  throw new Error(
    `no status bar item of ${prefix} showed /${pattern.source}/ within ${ms / 1000} s; they show ${JSON.stringify(shows)} ` +
      `(the status bar's items: ${all.join(', ')})`,
  );
}

/**
 * From the page's start (navigation, performance.now() = 0) the first moment an item of `prefix`
 * shows `pattern`: an observer on the whole document from before the workbench's first script, which
 * stops once it has seen it. Installed for every later load of the page (a reload is a window's start).
 */
async function recordFirstText(page, prefix, pattern) {
  await page.addInitScript(
    ({ prefix, source }) => {
      // readItems, again: a script that runs in the page takes nothing from this module.
      const items = () =>
        [...document.querySelectorAll('.statusbar-item')]
          .filter((element) => element.id.toLowerCase().startsWith(prefix.toLowerCase()))
          .map((element) => {
            const copy = element.cloneNode(true);
            for (const icon of copy.querySelectorAll('.codicon')) {
              const name = [...icon.classList].find((name) => name.startsWith('codicon-'))?.slice('codicon-'.length);
              icon.replaceWith(name === undefined ? '' : `$(${name}) `);
            }
            return copy.textContent.replace(/\s+/g, ' ').trim();
          });
      const seen = { firstItemMs: undefined, correctMs: undefined, text: undefined };
      window.ttFirstText = seen;
      const observer = new MutationObserver(() => {
        const texts = items();
        if (texts.length > 0 && seen.firstItemMs === undefined) seen.firstItemMs = performance.now();
        const text = texts.find((one) => new RegExp(source).test(one));
        if (text === undefined) return;
        seen.correctMs = performance.now();
        seen.text = text;
        observer.disconnect();
      });
      observer.observe(document, { subtree: true, childList: true, characterData: true });
    },
    { prefix, source: pattern.source },
  );
}

/**
 * `rounds` reloads of each window, one window at a time and in alternating order, with `settleMs`
 * between: from each reload's start to the first correct text. A reload is a window's start: the
 * workbench loads again and a new extension host starts and activates every extension.
 */
export async function firstTextAfterReload(windows, { rounds, settleMs, limitMs = 120_000 }) {
  for (const { page, prefix, pattern } of windows) await recordFirstText(page, prefix, pattern);
  const times = Object.fromEntries(windows.map(({ label }) => [label, []]));
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? windows : [...windows].reverse();
    for (const { label, page } of order) {
      await page.reload({ waitUntil: 'domcontentloaded', timeout: limitMs });
      const seen = await page
        .waitForFunction(() => window.ttFirstText?.correctMs !== undefined && window.ttFirstText, undefined, {
          timeout: limitMs,
          polling: 100,
        })
        .then((handle) => handle.jsonValue());
      times[label].push(seen);
      console.log(
        `  ${label}, round ${round + 1}: "${seen.text}" ${seen.correctMs.toFixed(0)} ms after the window's start ` +
          `(first item of the extension at ${seen.firstItemMs?.toFixed(0) ?? '?'} ms)`,
      );
      await delay(settleMs);
    }
  }
  return times;
}

/** The files of an extension's install folder that its host has loaded (the probe's GET /modules), with their sizes. */
export async function loadedJavaScript(probe, folder) {
  const answer = await fetch(`http://127.0.0.1:${probe.port}/modules`, { signal: AbortSignal.timeout(30_000) });
  if (!answer.ok) throw new Error(`the probe answered GET /modules with ${answer.status}`);
  const within = `${folder}${sep}`;
  const files = (await answer.json())
    .filter((path) => path.startsWith(within))
    .map((path) => ({ file: path.slice(within.length), bytes: statSync(path).size }));
  return { files, bytes: files.reduce((sum, { bytes }) => sum + bytes, 0) };
}
