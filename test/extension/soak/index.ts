/**
 * The soak's entry point inside the VS Code extension host (test/extension/host/soak.mjs points
 * `extensionTestsPath` here): runs soak.test.js, which drives the extension for TT_SOAK_MINUTES
 * against the reference server while faults are injected, then checks what must hold after it.
 * Kept apart from ../suite/ so the extension suite never runs it.
 */
import { runSuite } from '../runner';

export async function run(): Promise<void> {
  await runSuite(__dirname, 'soak check');
}
