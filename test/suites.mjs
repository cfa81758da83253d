// The host suites `npm test` runs after the unit tests, in this order; `npm test -- --suite <label>`
// runs chosen ones. Adding a suite is one entry (fields: test/extension/host/launch.mjs,
// defineSuites). Paths are relative to the repository; `files` of a development suite is the
// compiled in-host index (test/extension/<folder>/index.ts, see test/extension/runner.ts).
import { defineSuites } from './extension/host/launch.mjs';

export default defineSuites([
  {
    label: 'extension',
    title:
      'the extension suite in a real VS Code extension host (code-server + chromium), against the reference server and real git',
    files: 'out/test/extension/suite/index.js',
    workspace: 'test/extension/workspace.mjs',
    minutes: 5,
  },
  {
    label: 'reload',
    title: 'entries queued offline survive a window reload and arrive once, in order',
    files: 'out/test/extension/reload/index.js',
    workspace: 'test/extension/workspace.mjs',
    reload: true,
    minutes: 5,
  },
  {
    label: 'german',
    title: 'the extension with the display language German',
    files: 'out/test/extension/german/index.js',
    workspace: 'test/extension/workspace.mjs',
    language: 'de',
    minutes: 5,
  },
  {
    label: 'restricted',
    title:
      "a cloned repository with hostile settings opened in Restricted Mode: nothing starts or is created, the user's pace, privacy, ticket keys and branch-time history hold, and the status bar follows the app after a switch to a branch its links match",
    files: 'out/test/extension/restricted/index.js',
    workspace: 'test/extension/restricted/workspace.mjs',
    driver: 'test/extension/restricted/driver.mjs',
    minutes: 4,
  },
  {
    label: 'packaged',
    title: 'the .vsix installed into a clean code-server, seen through its status bar',
    files: 'test/extension/packaged/checks.mjs',
    build: 'packaged',
    minutes: 9,
  },
  {
    label: 'coexist',
    title:
      "the packaged extension beside the app's own (TT_PEER_VSIX, else a stand-in): said once, one POST /branch-changed per switch, no setting written",
    files: 'test/extension/coexist/checks.mjs',
    build: 'packaged',
    minutes: 6,
  },
  {
    label: 'start',
    title:
      '`npm start`: the URL it prints asks for the printed password and then shows the running demo activity; nothing answers without it; its keys show offline, a locked license, a break and a rejected token in the status bar; q and Ctrl-C leave nothing',
    files: 'test/start/check.mjs',
    build: 'script',
    minutes: 5,
  },
  {
    label: 'soak',
    title: 'the extension under injected faults in the real extension host (docs/SOAK.md)',
    files: 'out/test/extension/soak/index.js',
    workspace: 'test/extension/workspace.mjs',
    duration: 2,
    // Start-up, draining the queue (up to 90 s), quiet time and the checks, on top of the duration.
    minutes: 5,
    driver: 'test/extension/soak/driver.mjs',
  },
]);
