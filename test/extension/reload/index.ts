/**
 * The offline queue across a window reload, in one code-server window (the `reload` entry of
 * test/suites.mjs). VS Code loads this file as `extensionTestsPath` in every
 * extension host the window starts: the first runs before/ (the app killed, three entries
 * logged and queued) and reloads the window; the reload starts a new extension host, which loads
 * this file again and runs after/ (the app restarted; the entries must arrive by themselves).
 * The first half's result is kept on disk and added to the second's.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { runSuite, type SuiteResult } from '../runner';
import { firstHalfResultFile } from './setup';

/** Long enough for a loaded 2-core machine; a window that never reloads must still end the run. */
const RELOAD_LIMIT_MS = 90_000;

export async function run(): Promise<void> {
  const resultFile = firstHalfResultFile();
  if (existsSync(resultFile)) {
    const earlierHalf = JSON.parse(readFileSync(resultFile, 'utf8')) as SuiteResult;
    await runSuite(join(__dirname, 'after'), 'reload test', { earlierHalf });
    return;
  }
  const firstHalf = await runSuite(join(__dirname, 'before'), 'reload test');
  // Written only after every check of the first half passed (runSuite throws otherwise).
  // The process id lets the second half prove that it runs in a new extension host.
  writeFileSync(resultFile, `${JSON.stringify({ ...firstHalf, hostPid: process.pid })}\n`);
  await vscode.commands.executeCommand('workbench.action.reloadWindow');
  // The reload ends this extension host; getting past the limit means the window stayed.
  await new Promise((resolve) => setTimeout(resolve, RELOAD_LIMIT_MS));
  throw new Error(`the window did not reload within ${RELOAD_LIMIT_MS / 1000} s`);
}
