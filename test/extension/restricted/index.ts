/**
 * The `restricted` suite's entry point in the extension host: a cloned repository with hostile
 * settings opened in Restricted Mode (test/suites.mjs; ./driver.mjs prepares the user's side).
 */
import { runSuite } from '../runner';

export async function run(): Promise<void> {
  await runSuite(__dirname, 'restricted-mode test');
}
