/**
 * The soak's entry point inside the VS Code extension host (the launcher points
 * `extensionTestsPath` here, as test/suites.mjs says): runs soak.test.js, which drives the
 * extension for its minutes against the reference server while faults are injected, then checks
 * what must hold after it.
 * Kept apart from ../suite/ so the extension suite never runs it.
 */
import { runSuite } from '../runner';

export async function run(): Promise<void> {
  await runSuite(__dirname, 'soak check');
}
