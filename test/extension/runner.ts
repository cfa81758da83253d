/**
 * The in-host mocha runner every suite shares: VS Code loads a suite's `index.js` as
 * `extensionTestsPath` and awaits its `run()`, which hands its own folder to `runSuite`. Which
 * suites there are, and how each is started, is the table in test/suites.mjs (`npm test -- --suite
 * <label>`); test/extension/suite/ also runs in desktop VS Code through test/extension/electron.mjs
 * or "Extension Tests" in .vscode/launch.json.
 *
 * The launcher reads the verdict from the result file TT_SUITE names (./launch.ts) rather than
 * from the host's exit, so it does not depend on how a host reports it. The reporter's lines go to
 * `<result file>.log` as they happen, so a run that hangs still shows how far it got.
 */
import { appendFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { format } from 'node:util';
import Mocha from 'mocha';
import { suiteLaunch } from './launch';

export interface SuiteResult {
  passes: number;
  failures: number;
  /** Full titles of the failed tests and hooks. */
  failed: string[];
}

export interface RunOptions {
  /**
   * The reload suite runs in two halves in one window, before and after a reload: the second
   * appends to the reporter's log and adds the first half's result to its own.
   */
  readonly earlierHalf?: SuiteResult;
}

/**
 * Runs every `*.test.js` under `folder` (sub-folders too, such as suite/parts/, one test file per
 * part of src/extension), in path order, writes the result file and returns it. `TT_GREP` in the
 * environment (code-server hands it to the extension host) runs only the tests whose title matches.
 */
export async function runSuite(
  folder: string,
  what = 'extension test',
  { earlierHalf }: RunOptions = {},
): Promise<SuiteResult> {
  const { resultFile } = suiteLaunch();
  const mocha = new Mocha({
    ui: 'bdd',
    color: false,
    timeout: 20_000,
    forbidOnly: true,
    ...(process.env.TT_GREP ? { grep: process.env.TT_GREP } : {}),
  });
  for (const file of readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.test.js'))
    .sort()) {
    mocha.addFile(join(folder, file));
  }

  if (resultFile !== undefined) {
    const logFile = `${resultFile}.log`;
    if (earlierHalf === undefined) writeFileSync(logFile, '');
    Mocha.reporters.Base.consoleLog = (...data: unknown[]) => appendFileSync(logFile, `${format(...data)}\n`);
  }

  const failed: string[] = [];
  let result: SuiteResult;
  try {
    const stats = await new Promise<Mocha.Stats>((resolve) => {
      const runner = mocha.run(() => resolve(runner.stats ?? ({ passes: 0, failures: 0 } as Mocha.Stats)));
      runner.on('fail', (test) => failed.push(test.fullTitle()));
    });
    result = { passes: stats.passes, failures: stats.failures, failed };
  } catch (error) {
    // A test file that throws while loading lands here, before any test runs.
    result = {
      passes: 0,
      failures: 1,
      failed: [`loading the test files: ${error instanceof Error ? error.message : String(error)}`],
    };
  }

  if (earlierHalf !== undefined) {
    result = {
      passes: earlierHalf.passes + result.passes,
      failures: earlierHalf.failures + result.failures,
      failed: [...earlierHalf.failed, ...result.failed],
    };
  }
  if (resultFile !== undefined) writeFileSync(resultFile, `${JSON.stringify(result, null, 2)}\n`);
  if (result.failures > 0) throw new Error(`${result.failures} ${what}(s) failed: ${result.failed.join('; ')}`);
  return result;
}
