// The localization path end to end: the extension in a real VS Code extension host (code-server
// in Debian's chromium, through ./suite.mjs) with the display language German. No language pack
// can be downloaded offline, so HostRun#useDisplayLanguage (common.mjs) sets the language the way
// a pack's installation would, with VS Code's own strings left English. The in-host part is
// test/extension/german/. The last line is `german-tests: N passed, N failed`.
//
// Options: --no-build (test/run.mjs has just built); TT_CHROMIUM_PATH, TT_EXTENSION_VERBOSE=1 as
// for run.mjs; TT_EXTENSION_TIMEOUT_SECONDS, the limit from code-server's start, default 300.
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { HostRun, repoRoot } from './common.mjs';
import { runSuiteInHost } from './suite.mjs';

const { values: options } = parseArgs({ options: { 'no-build': { type: 'boolean', default: false } } });

const run = new HostRun({ name: 'German tests', countLabel: 'german-tests', tempPrefix: 'tt-german-', verbose: process.env.TT_EXTENSION_VERBOSE === '1' });
await run.execute(() =>
  runSuiteInHost(run, {
    suiteIndex: join(repoRoot, 'out', 'test', 'extension', 'german', 'index.js'),
    label: 'German tests',
    noBuild: options['no-build'],
    locale: 'de',
    timeoutSeconds: Number(process.env.TT_EXTENSION_TIMEOUT_SECONDS ?? 300),
    timeoutHint: 'TT_EXTENSION_TIMEOUT_SECONDS',
  }),
);
