/**
 * The extension suite's entry point inside the VS Code extension host: VS Code loads this file as
 * `extensionTestsPath` and awaits `run()`, which runs every `*.test.js` beside it (see
 * ../runner.ts for the result file the launchers read).
 */
import { runSuite } from '../runner';

export async function run(): Promise<void> {
  await runSuite(__dirname);
}
