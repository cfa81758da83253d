/**
 * The activation bundle (`main`, dist/extension.js) is what VS Code reads and runs before `activate` returns;
 * dist/core.js, loaded from beside it once `activate` has returned (src/extension/extension.ts), is the path to the
 * first status bar text, the client and its transport with it; dist/rest.js, which the core loads after that text, is
 * everything else (src/extension/rest.ts). This builds the three as `npm run package` does (its vscode:prepublish:
 * `esbuild.mjs --production --only extension`), into a folder of its own, and fails when the core or the transport
 * comes back into the activation bundle, when a feature of the rest comes into the path to the first text (by the
 * feature's name), or when either outgrows its budget. The size that counts is that production build's: it is the file
 * the .vsix ships and users load; the dev build (`npm run build`, unminified, with a source map) is only what the host
 * tests load, and its size is printed for comparison only.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const repoRoot = join(__dirname, '..', '..', '..', '..');

/** The production activation bundle stays under 60 KB, whatever the core adds. */
export const ACTIVATION_BUNDLE_BUDGET_BYTES = 60_000;

/**
 * What loads before the first status bar text (extension.js and core.js) stays under this. The target is twice
 * the app's own extension's 18,563 bytes, FIRST_TEXT_TARGET_BYTES; the session, its client and the status bar's words
 * for every state take more than that today (docs/PERFORMANCE.md, "Activation bundle", says by module), so this
 * budget holds what they take now, and a feature that comes back into them fails here. It was 100,000 until the
 * long-session warning: its words are the rest's, but the item must know the threshold and when this window first
 * saw the session, so that a nine-hour session turns the colour at the first text after the rest loads (274 bytes).
 */
export const FIRST_TEXT_BUDGET_BYTES = 100_500;

/** Twice the app's own extension's JavaScript before its first text (docs/PERFORMANCE.md). */
export const FIRST_TEXT_TARGET_BYTES = 2 * 18_563;

/** Text each feature of the rest holds, and no part of the path to the first text: a log line of its own. */
const REST_MARKS = {
  "the queue's sending (offlineQueue.ts)": 'Could not send the queued entries now',
  'git, the branch reporter (branchReporter.ts)': 'was not reported: ',
  'the ledger, time by branch (branchTime.ts)': 'The time-by-branch ledger could not be read or written',
  'links (linkController.ts)': 'none applies here now.',
  "the app's own extension beside this one (coexistence.ts)": 'which reports branch switches',
  'onboarding (onboardingController.ts)': 'First-run notice: ',
  'the command handlers (commands/index.ts)': 'Could not keep the known activities',
};

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
  let rest: string;

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
    rest = readFileSync(join(folder, 'rest.js'), 'utf8');
  });

  after(() => rmSync(folder, { recursive: true, force: true }));

  it(`stays under ${ACTIVATION_BUNDLE_BUDGET_BYTES} bytes, minified (what the .vsix ships)`, () => {
    const bytes = Buffer.byteLength(activation);
    const devBundle = join(repoRoot, 'dist', 'extension.js');
    const dev = statSync(devBundle, { throwIfNoEntry: false });
    console.log(
      `      activation bundle: ${bytes} bytes minified; core bundle ${Buffer.byteLength(core)} bytes; ` +
        `rest bundle ${Buffer.byteLength(rest)} bytes${dev ? `; dev build ${dev.size} bytes` : ''}`,
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

  it('keeps the transport out of it, in the core: the first text needs it', () => {
    assert.equal(activation.includes(TRANSPORT_MARK), false, 'the transport is in the activation bundle');
    assert.equal(core.includes(TRANSPORT_MARK), true, 'the core bundle holds the transport');
    assert.deepEqual(readdirSync(folder).sort(), ['core.js', 'extension.js', 'rest.js'], 'three bundles, nothing else');
    assert.equal(
      [activation, core, rest].some((text) => /sourceMappingURL/.test(text)),
      false,
      'all are production builds',
    );
  });

  it(`loads at most ${FIRST_TEXT_BUDGET_BYTES} bytes before the first text (activation and core bundles)`, () => {
    const bytes = Buffer.byteLength(activation) + Buffer.byteLength(core);
    console.log(
      `      before the first text: ${bytes} bytes (target ${FIRST_TEXT_TARGET_BYTES}, ` +
        `${(bytes / FIRST_TEXT_TARGET_BYTES).toFixed(2)}× it)`,
    );
    assert.ok(
      bytes <= FIRST_TEXT_BUDGET_BYTES,
      `dist/extension.js and dist/core.js are ${bytes} bytes, over ${FIRST_TEXT_BUDGET_BYTES}`,
    );
  });

  for (const [feature, mark] of Object.entries(REST_MARKS))
    it(`keeps ${feature} out of the path to the first text, in the rest`, () => {
      assert.equal(core.includes(mark), false, `${feature} is in dist/core.js`);
      assert.equal(activation.includes(mark), false, `${feature} is in dist/extension.js`);
      assert.equal(rest.includes(mark), true, `dist/rest.js does not hold ${feature}`);
    });

  it('names the rest the core loads', () => {
    assert.match(core, /"\.\/rest"/, 'the core bundle names the rest it loads');
  });
});
