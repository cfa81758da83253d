/**
 * The activation bundle (`main`, dist/extension.js) is what VS Code reads and runs before
 * `activate` starts; undici and the transport are a bundle of their own (dist/transport.js),
 * loaded on the first request (src/client/lazyTransport.ts). This builds both as `npm run
 * package` does (its vscode:prepublish: `esbuild.mjs --production --only extension`), into a
 * folder of its own, and fails when undici comes back into the activation bundle or the bundle
 * outgrows its budget. The size that counts is that production build's: it is the file the .vsix
 * ships and users load; the dev build (`npm run build`, unminified, with a source map) is only
 * what the host tests load, and its size is printed for comparison only.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const repoRoot = join(__dirname, '..', '..', '..', '..');

/**
 * The production activation bundle must stay under this many bytes. Issue 25 asks for 60 KB; the
 * extension's own code (src/extension, src/tracker, the client without its transport) is about
 * 146 KiB minified today, so 60 KB needs activation to load less of it (docs/PERFORMANCE.md):
 * this budget holds what is met, with room for the features under way, and is to come down.
 */
export const ACTIVATION_BUNDLE_BUDGET_BYTES = 180 * 1024;

/** Text only undici (and the transport that names its codes) holds: its error codes. */
const UNDICI_MARK = 'UND_ERR_';

describe('the activation bundle, built as `npm run package` builds it', function () {
  // A production build of two bundles: seconds on a busy machine.
  this.timeout(120_000);
  let folder: string;
  let activation: string;
  let transport: string;

  before(() => {
    folder = mkdtempSync(join(tmpdir(), 'tt-activation-bundle-'));
    const build = spawnSync(process.execPath, ['esbuild.mjs', '--production', '--only', 'extension', '--outdir', folder], { cwd: repoRoot, encoding: 'utf8' });
    assert.equal(build.status, 0, `esbuild.mjs failed: ${build.stdout}${build.stderr}`);
    activation = readFileSync(join(folder, 'extension.js'), 'utf8');
    transport = readFileSync(join(folder, 'transport.js'), 'utf8');
  });

  after(() => rmSync(folder, { recursive: true, force: true }));

  it(`stays under ${ACTIVATION_BUNDLE_BUDGET_BYTES} bytes, minified (what the .vsix ships)`, () => {
    const bytes = Buffer.byteLength(activation);
    const devBundle = join(repoRoot, 'dist', 'extension.js');
    const dev = statSync(devBundle, { throwIfNoEntry: false });
    console.log(`      activation bundle: ${bytes} bytes minified; transport bundle ${Buffer.byteLength(transport)} bytes${dev ? `; dev build ${dev.size} bytes` : ''}`);
    assert.ok(bytes < ACTIVATION_BUNDLE_BUDGET_BYTES, `dist/extension.js is ${bytes} bytes, not under ${ACTIVATION_BUNDLE_BUDGET_BYTES}`);
  });

  it('holds none of undici, and loads the transport from beside it only when asked', () => {
    assert.equal(activation.includes(UNDICI_MARK), false, 'undici (or the transport naming its codes) is in the activation bundle');
    assert.equal(transport.includes(UNDICI_MARK), true, 'the transport bundle holds undici');
    assert.match(activation, /"\.\/transport"/, 'the activation bundle names the transport it loads');
    assert.equal(/sourceMappingURL/.test(activation) || /sourceMappingURL/.test(transport), false, 'both are production builds');
  });
});
