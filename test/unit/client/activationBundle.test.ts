/**
 * The activation bundle (`main`, dist/extension.js) is what VS Code reads and runs before `activate` returns; the rest
 * of the extension is dist/core.js, loaded from beside it once `activate` has returned (src/extension/extension.ts),
 * the client and its transport with it. This builds the two as `npm run package` does (its vscode:prepublish:
 * `esbuild.mjs --production --only extension`), into a folder of its own, and fails when the core or the transport
 * comes back into the activation bundle or the bundle outgrows its budget. The size that counts is that production
 * build's: it is the file the .vsix ships and users load; the dev build (`npm run build`, unminified, with a source
 * map) is only what the host tests load, and its size is printed for comparison only.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const repoRoot = join(__dirname, '..', '..', '..', '..');

/** The production activation bundle stays under 60 KB, whatever the core adds. */
export const ACTIVATION_BUNDLE_BUDGET_BYTES = 60_000;

/** Text only the transport holds: a code it names its failures by (src/client/connector.ts). */
const TRANSPORT_MARK = 'ERR_CLOSED_BEFORE_REQUEST';

/** Text only the core holds: the log line core.ts writes when it has started. */
const CORE_MARK = "looking for the app's VS Code integration";

describe('the activation bundle, built as `npm run package` builds it', function () {
  // A production build of two bundles: seconds on a busy machine.
  this.timeout(120_000);
  let folder: string;
  let activation: string;
  let core: string;

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
  });

  after(() => rmSync(folder, { recursive: true, force: true }));

  it(`stays under ${ACTIVATION_BUNDLE_BUDGET_BYTES} bytes, minified (what the .vsix ships)`, () => {
    const bytes = Buffer.byteLength(activation);
    const devBundle = join(repoRoot, 'dist', 'extension.js');
    const dev = statSync(devBundle, { throwIfNoEntry: false });
    console.log(
      `      activation bundle: ${bytes} bytes minified; core bundle ${Buffer.byteLength(core)} bytes${dev ? `; dev build ${dev.size} bytes` : ''}`,
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

  it('keeps the transport out of it, in the core: no third bundle to load', () => {
    assert.equal(activation.includes(TRANSPORT_MARK), false, 'the transport is in the activation bundle');
    assert.equal(core.includes(TRANSPORT_MARK), true, 'the core bundle holds the transport');
    assert.deepEqual(readdirSync(folder).sort(), ['core.js', 'extension.js'], 'two bundles, nothing else');
    assert.equal(
      [activation, core].some((text) => /sourceMappingURL/.test(text)),
      false,
      'both are production builds',
    );
  });
});
