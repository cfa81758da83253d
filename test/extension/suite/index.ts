/**
 * The extension suite's entry point inside the VS Code extension host: VS Code loads this file as `extensionTestsPath`
 * and awaits `run()`, which runs every `*.test.js` beside it and in its sub-folders (parts/: a test per part of
 * src/extension, built from small fakes) (see ../runner.ts for the result file the launchers read).
 */
import { runSuite } from '../runner';

export async function run(): Promise<void> {
  await runSuite(__dirname);
}
