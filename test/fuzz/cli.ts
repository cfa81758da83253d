/**
 * `npm run fuzz -- --cases N [--seed S] [--concurrency C]`: a longer fuzz run than `npm test` does.
 * Prints progress and the status histogram; exits 1 on any violation, so it can gate a CI job.
 * Without --seed a fresh one is picked and printed, so a failing run can be repeated exactly.
 */
import { parseArgs } from 'node:util';
import { MAX_CONCURRENCY, runFuzz, type FuzzReport } from './runner';

const USAGE = 'usage: npm run fuzz -- [--cases N] [--seed S] [--concurrency C]';

interface CliOptions {
  readonly cases: number;
  readonly seed: number;
  readonly concurrency: number;
}

class UsageError extends Error {}

function wholeNumber(name: string, text: string | undefined, fallback: number, min: number, max: number): number {
  if (text === undefined) return fallback;
  const value = /^[0-9]+$/.test(text) ? Number(text) : NaN;
  if (!(value >= min && value <= max))
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, not "${text}".`);
  return value;
}

function parseOptions(argv: readonly string[]): CliOptions | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        cases: { type: 'string' },
        seed: { type: 'string' },
        concurrency: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    });
  } catch (error) {
    // parseArgs already says what is wrong in one sentence, only sometimes without its full stop.
    const message = error instanceof Error ? error.message : String(error);
    throw new UsageError(/[.!?]$/.test(message) ? message : `${message}.`);
  }
  const { values } = parsed;
  if (values.help === true) return 'help';
  return {
    cases: wholeNumber('cases', values.cases, 10_000, 1, 10_000_000),
    seed: wholeNumber('seed', values.seed, Math.floor(Math.random() * 2 ** 32), 0, 2 ** 32 - 1),
    concurrency: wholeNumber('concurrency', values.concurrency, 16, 1, MAX_CONCURRENCY),
  };
}

function printReport(report: FuzzReport): void {
  const seconds = (report.durationMs / 1000).toFixed(1);
  console.log(`\n${report.cases} cases, seed ${report.seed}, ${seconds} s`);
  console.log('status histogram:');
  const statuses = Object.entries(report.statusCounts).sort(([a], [b]) => Number(a) - Number(b));
  for (const [status, count] of statuses) console.log(`  ${status.padStart(6)}  ${count}`);
  console.log(`  closed  ${report.closedWithoutAnswer} (no answer, connection closed)`);
  console.log(`health probes: ${report.probes.ok} ok, ${report.probes.failed} failed`);
  const observations = Object.entries(report.observations);
  if (observations.length > 0) {
    console.log('observations (allowed, worth a look):');
    for (const [what, { count, example }] of observations)
      console.log(`  ${count} x ${what}; e.g. ${example.slice(0, 160)}`);
  }
  if (report.violationCount === 0) {
    console.log('violations: none');
    return;
  }
  console.log(
    `violations: ${report.violationCount}${report.violationCount > report.violations.length ? ` (first ${report.violations.length} shown)` : ''}`,
  );
  for (const violation of report.violations.slice(0, 20)) {
    console.log(
      `- case ${violation.caseIndex}: ${violation.problem}\n  ${violation.description}\n  request: ${violation.request}\n  answer: ${violation.answer}`,
    );
  }
}

async function main(): Promise<number> {
  let options: CliOptions | 'help';
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`fuzz: ${error.message}\n${USAGE}`);
    return 2;
  }
  if (options === 'help') {
    console.log(USAGE);
    return 0;
  }
  console.log(
    `fuzzing the reference server: ${options.cases} cases, seed ${options.seed}, concurrency ${options.concurrency}`,
  );
  const report = await runFuzz({
    ...options,
    onProgress: ({ done, total, violations, elapsedMs }) => {
      if (done % 2_000 === 0 || done === total)
        console.log(`  ${done}/${total} cases, ${violations} violations, ${(elapsedMs / 1000).toFixed(1)} s`);
    },
  });
  printReport(report);
  return report.violationCount === 0 ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
