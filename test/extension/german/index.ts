/**
 * The German suite's entry point (the `german` entry of test/suites.mjs runs it in code-server
 * with the display language `de`): the localization path end to end, in a real extension host.
 */
import { runSuite } from '../runner';

export async function run(): Promise<void> {
  await runSuite(__dirname, 'German test');
}
