// `npm test`, the one test launcher. First the unit step: build (esbuild), type-check and compile (tsc), the unit tests
// (mocha, out/test/unit/), with lint (ESLint) and the format check (Prettier) running beside them, then
// `npm run release:check` (a row of its own, `release`: each of its steps counts as a test). Then, after making
// sure the Debian packages they need are installed (./extension/host/debian.mjs), every host suite of the table in
// ./suites.mjs, each in its own code-server and chromium. Results come back as data (the result file of the in-host
// runner, the return value of packaged checks), never parsed from output. It prints a line per suite, a summary, and
// last `tests: N passed, N failed`; the exit code is 0 only with no failure and at least one pass.
//
// Options:
//   --suite <label>      run only these (repeatable): `unit` is the unit step, any other label an
//                        entry of ./suites.mjs; build and tsc always run, lint only with `unit`
//   --grep <pattern>     only the unit tests whose title matches, and no release:check (host suites run whole)
//   --soak-minutes <N>   how long suites with a duration (the soak) run, 0.5 to 240 (default 2)
//   --seed <N>           the soak's seed for faults, user actions and waits (default random, printed)
//   --faults <list>      the soak's fault kinds, comma-separated (default all; docs/SOAK.md)
//   --verbose            also print code-server's, the server's and the host's own output
//   --list               print the suites and exit
// Environment: TT_CHROMIUM_PATH, a chromium other than /usr/bin/chromium (the only variable).
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Mocha from 'mocha';
import { releaseCheck } from '../scripts/releaseCheck.mjs';
import { ensureDebianPackages } from './extension/host/debian.mjs';
import { driverOptions, launchSuite } from './extension/host/launch.mjs';
import suites from './suites.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => join(root, 'node_modules', '.bin', name);
const started = Date.now();

const options = readOptions();
if (options.list) {
  console.log(
    [
      'unit: build, type-check, lint, the unit tests and release:check',
      ...suites.map((suite) => `${suite.label}: ${suite.title}`),
    ].join('\n'),
  );
  process.exit(0);
}
const hostSuites = options.suite === undefined ? suites : suites.filter((suite) => options.suite.includes(suite.label));
const withUnit = options.suite === undefined || options.suite.includes('unit');
const driver = new Map();
for (const suite of hostSuites) {
  try {
    driver.set(
      suite.label,
      await driverOptions(suite, { soakMinutes: options['soak-minutes'], seed: options.seed, faults: options.faults }),
    );
  } catch (error) {
    usage(error.message);
  }
}

// ESLint and Prettier read the sources, not what tsc writes, so they run beside the build, tsc and
// mocha: on a fresh clone (no caches) that is what keeps `npm run test:unit` under a minute on two cores.
// Both caches are by content; `npm run lint` and `npm run format:check` check everything afresh.
const cache = (location) => [
  '--cache',
  '--cache-strategy',
  'content',
  '--cache-location',
  join('node_modules', '.cache', ...location),
];
const checks = withUnit
  ? [
      startCheck('lint (eslint)', bin('eslint'), [...cache(['eslint', '']), '.']),
      startCheck('format check (prettier)', bin('prettier'), [
        '--check',
        '--log-level',
        'warn',
        ...cache(['prettier', 'cache.json']),
        '.',
      ]),
    ]
  : [];
step('build (esbuild)', process.execPath, ['esbuild.mjs']);
// Incremental: the build info lives in out/, so deleting out/ also forgets it.
step('type-check and compile (tsc)', bin('tsc'), [
  '-p',
  '.',
  '--incremental',
  '--tsBuildInfoFile',
  join('out', '.tsbuildinfo'),
]);
// Before the slow part, so that a machine without the packages hears it at once.
if (hostSuites.length > 0 && !ensureDebianPackages()) process.exit(1);

const results = [];
if (withUnit) {
  const unit = await unitTests(options.grep);
  for (const check of checks) await finishCheck(check);
  results.push({ label: 'unit', ...unit });
  // A release that would fail is found here, on the commit, rather than on its tag.
  if (options.grep === undefined) results.push({ label: 'release', ...(await releaseSteps()) });
}
for (const suite of hostSuites)
  results.push({
    label: suite.label,
    ...(await launchSuite(suite, { verbose: options.verbose, options: driver.get(suite.label) })),
  });

const passed = results.reduce((sum, result) => sum + result.passes, 0);
const failed = results.reduce((sum, result) => sum + result.failures, 0);
console.log('\nsuite       passed  failed     time');
for (const { label, passes, failures, seconds } of results) {
  console.log(
    `${label.padEnd(10)} ${String(passes).padStart(7)} ${String(failures).padStart(7)} ${seconds.toFixed(1).padStart(7)} s${failures > 0 ? '  FAILED' : ''}`,
  );
}
console.log(`all ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(`\ntests: ${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 || passed === 0 ? 1 : 0;

function readOptions() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        suite: { type: 'string', multiple: true },
        grep: { type: 'string' },
        'soak-minutes': { type: 'string' },
        seed: { type: 'string' },
        faults: { type: 'string' },
        verbose: { type: 'boolean', default: false },
        list: { type: 'boolean', default: false },
      },
    }));
  } catch (error) {
    usage(error.message.split('\n')[0]);
  }
  const labels = ['unit', ...suites.map((suite) => suite.label)];
  const unknown = (values.suite ?? []).filter((label) => !labels.includes(label));
  if (unknown.length > 0) usage(`no suite ${unknown.join(', ')}; the suites are ${labels.join(', ')}`);
  const minutes = values['soak-minutes'];
  if (minutes !== undefined && !/^\d+(\.\d+)?$/.test(minutes))
    usage(`--soak-minutes takes a number of minutes, not "${minutes}"`);
  return { ...values, 'soak-minutes': minutes === undefined ? undefined : Number(minutes) };
}

function usage(sentence) {
  console.error(
    `npm test: ${sentence.replace(/\.$/, '')}. Options: --suite <label> (repeatable), --grep <pattern>, --soak-minutes <N>, --seed <N>, --faults <list>, --verbose, --list (see test/run.mjs).`,
  );
  process.exit(2);
}

/** A checker (ESLint, Prettier) in the background, its output held back so it does not interleave with mocha's. */
function startCheck(title, command, args) {
  const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk) => (output += chunk));
  const status = new Promise((resolve) => {
    child.once('error', (error) => resolve(error.message));
    child.once('close', (code, signal) => resolve(code ?? signal));
  });
  // A step that fails exits the process; the checker must not outlive it.
  process.once('exit', () => child.kill());
  return { title, status, output: () => output };
}

async function finishCheck(check) {
  const status = await check.status;
  console.log(`\n> ${check.title}, run beside the steps above`);
  if (check.output() !== '') process.stdout.write(check.output());
  if (status !== 0) {
    console.error(`${check.title} failed.`);
    console.log('\ntests: 0 passed, 1 failed');
    process.exit(1);
  }
}

function step(title, command, args) {
  console.log(`\n> ${title}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`${title} failed.`);
    console.log('\ntests: 0 passed, 1 failed');
    process.exit(1);
  }
}

/** `npm run release:check` (scripts/releaseCheck.mjs) without a tag: each of its steps a test. */
async function releaseSteps() {
  const stepsStarted = Date.now();
  console.log('\n> release:check (scripts/releaseCheck.mjs)');
  let steps;
  try {
    steps = await releaseCheck({ root });
  } catch (error) {
    steps = [{ title: 'release:check', problems: [error.message] }];
  }
  for (const { title, problems } of steps) {
    console.log(`  ${problems.length === 0 ? '✓' : '✗'} ${title}`);
    for (const problem of problems) console.log(`      ${problem}`);
  }
  const failures = steps.filter((step) => step.problems.length > 0).length;
  return { passes: steps.length - failures, failures, seconds: (Date.now() - stepsStarted) / 1000 };
}

async function unitTests(grep) {
  const unitStarted = Date.now();
  const unitRoot = join(root, 'out', 'test', 'unit');
  const files = readdirSync(unitRoot, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.js'))
    .sort()
    .map((file) => join(unitRoot, file));
  console.log('\n> unit tests (mocha)');
  const mocha = new Mocha({ reporter: 'spec', timeout: 20_000, forbidOnly: true, ...(grep ? { grep } : {}) });
  for (const file of files) mocha.addFile(file);
  const stats = await new Promise((resolve) => {
    const runner = mocha.run(() => resolve(runner.stats));
  });
  const result = {
    passes: stats?.passes ?? 0,
    failures: stats?.failures ?? 0,
    seconds: (Date.now() - unitStarted) / 1000,
  };
  console.log(`\nunit: ${result.passes} passed, ${result.failures} failed`);
  return result;
}
