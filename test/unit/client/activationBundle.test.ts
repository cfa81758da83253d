/**
 * The activation bundle (`main`, dist/extension.js) is what VS Code reads and runs before `activate` returns; the rest
 * of the extension is dist/core.js, loaded from beside it once `activate` has returned (src/extension/extension.ts),
 * and undici with the transport is dist/transport.js, loaded by the core's first request (src/client/lazyTransport.ts).
 * This builds the three as `npm run package` does (its vscode:prepublish: `esbuild.mjs --production --only extension`),
 * into a folder of its own, and fails when the core or undici comes back into the activation bundle or the bundle
 * outgrows its budget. The size that counts is that production build's: it is the file the .vsix ships and users load;
 * the dev build (`npm run build`, unminified, with a source map) is only what the host tests load, and its size is
 * printed for comparison only.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const repoRoot = join(__dirname, '..', '..', '..', '..');

/** Issue 25: the production activation bundle stays under 60 KB, whatever the core adds. */
export const ACTIVATION_BUNDLE_BUDGET_BYTES = 60_000;

/** Text only undici (and the transport that names its codes) holds: its error codes. */
const UNDICI_MARK = 'UND_ERR_';

/** Text only the core holds: the log line core.ts writes when it has started. */
const CORE_MARK = "looking for the app's VS Code integration";

describe('the activation bundle, built as `npm run package` builds it', function () {
  // A production build of two bundles: seconds on a busy machine.
  this.timeout(120_000);
  let folder: string;
  let activation: string;
  let core: string;
  let transport: string;

  before(() => {
    folder = mkdtempSync(join(tmpdir(), 'tt-activation-bundle-'));
    const build = spawnSync(
      process.execPath,
      ['esbuild.mjs', '--production', '--only', 'extension', '--outdir', folder],
      { cwd: repoRoot, encoding: 'utf8' },
    );
    assert.equal(build.status, 0, `esbuild.mjs failed: ${build.stdout}${build.stderr}`);
    activation = readFileSync(join(folder, 'extension.js'), 'utf8');
    core = readFileSync(join(folder, 'core.js'), 'utf8');
    transport = readFileSync(join(folder, 'transport.js'), 'utf8');
  });

  after(() => rmSync(folder, { recursive: true, force: true }));

  it(`stays under ${ACTIVATION_BUNDLE_BUDGET_BYTES} bytes, minified (what the .vsix ships)`, () => {
    const bytes = Buffer.byteLength(activation);
    const devBundle = join(repoRoot, 'dist', 'extension.js');
    const dev = statSync(devBundle, { throwIfNoEntry: false });
    console.log(
      `      activation bundle: ${bytes} bytes minified; core bundle ${Buffer.byteLength(core)} bytes; transport bundle ${Buffer.byteLength(transport)} bytes${dev ? `; dev build ${dev.size} bytes` : ''}`,
    );
    assert.ok(
      bytes < ACTIVATION_BUNDLE_BUDGET_BYTES,
      `dist/extension.js is ${bytes} bytes, not under ${ACTIVATION_BUNDLE_BUDGET_BYTES}`,
    );
  });

  it('holds none of the core, and loads it from beside it', () => {
    assert.equal(activation.includes(CORE_MARK), false, 'the core is in the activation bundle');
    assert.equal(core.includes(CORE_MARK), true, 'the core bundle holds the core');
    assert.match(activation, /"\.\/core"/, 'the activation bundle names the core it loads');
  });

  it('keeps undici out of both, in the transport the core loads only when asked', () => {
    for (const [name, text] of [
      ['activation', activation],
      ['core', core],
    ] as const) {
      assert.equal(
        text.includes(UNDICI_MARK),
        false,
        `undici (or the transport naming its codes) is in the ${name} bundle`,
      );
    }
    assert.equal(transport.includes(UNDICI_MARK), true, 'the transport bundle holds undici');
    assert.match(core, /"\.\/transport"/, 'the core bundle names the transport it loads');
    assert.equal(
      [activation, core, transport].some((text) => /sourceMappingURL/.test(text)),
      false,
      'all three are production builds',
    );
  });

  it('leaves node:http2 out of the transport: loading it loads no HTTP/2 (a megabyte of heap in plain Node)', () => {
    const load = `require(${JSON.stringify(join(folder, 'transport.js'))}); console.log(process.moduleLoadList.includes('NativeModule http2'))`;
    const loaded = spawnSync(process.execPath, ['-e', load], { encoding: 'utf8' });
    assert.equal(loaded.status, 0, loaded.stderr);
    assert.equal(loaded.stdout.trim(), 'false', 'requiring the transport loaded node:http2');
  });
});
