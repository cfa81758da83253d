/**
 * `npm run bench -- bundle` (also part of `npm run bench -- extension`): what VS Code reads and runs before our
 * `activate` starts. It builds the activation bundle as `npm run package` does (esbuild.mjs --production --only
 * extension, into a folder of its own, so dist/ is untouched), and a small dependency-free extension
 * (test/extension/benchFixture: only there may a file import vscode) with the same esbuild options, then times one
 * `require` of each in a fresh plain Node process, interleaved, many times, in the same minute: only their ratio means
 * anything on a shared machine. The core bundle (loaded once `activate` has returned: the path to the first status bar
 * text, the client and its transport in it) and the rest (loaded after that text) are timed too, for what they add
 * after activation, and so is the extension bundled as one file, as it was before the split, for what the split moves
 * out of activation. What loads before the first text (the activation and core bundles) is set beside the target of
 * twice the app's own extension's.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';

const repoRoot = join(__dirname, '..', '..', '..');
/** The activation bundle stays under 60 KB. */
const TARGET_ACTIVATION_BYTES = 60 * 1024;
/** Twice the app's own extension's JavaScript before its first text (docs/PERFORMANCE.md). */
const TARGET_FIRST_TEXT_BYTES = 2 * 18_563;
const SAMPLES = 21;

export interface BundleReport {
  readonly summaries: readonly [];
  readonly notes: readonly string[];
  readonly verdicts: readonly { what: string; measured: string; target: string; met: boolean }[];
}

/** esbuild.mjs's options for the extension entry, production. */
const FIXTURE_OPTIONS: esbuild.BuildOptions = {
  external: ['vscode'],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: false,
  minify: true,
  logLevel: 'warning',
};

interface Subject {
  readonly name: string;
  readonly file: string;
}

export async function bundleBenchmark(): Promise<BundleReport> {
  const folder = mkdtempSync(join(tmpdir(), 'tt-bench-bundle-'));
  try {
    const subjects = await buildSubjects(folder);
    const times = new Map(subjects.map((subject) => [subject.name, [] as number[]]));
    // Interleaved, so the machine's load of the moment falls on every subject alike.
    for (let round = 0; round < SAMPLES; round++)
      for (const subject of subjects) times.get(subject.name)?.push(requireMs(subject.file));
    const notes = subjects.map((subject) => describe(subject, times.get(subject.name) ?? []));
    const bytes = statSync(subjects[0]?.file ?? '').size;
    const firstText = bytes + statSync(subjects[3]?.file ?? '').size;
    const ours = median(times.get(subjects[0]?.name ?? '') ?? []);
    const fixture = median(times.get(subjects[2]?.name ?? '') ?? []);
    const before = median(times.get(subjects[1]?.name ?? '') ?? []);
    const core = median(times.get(subjects[3]?.name ?? '') ?? []);
    notes.push(
      `our activation bundle's require takes ${(ours / fixture).toFixed(2)}× the small extension's, and ${(ours / before).toFixed(2)}× the one bundle's (medians of ${SAMPLES}, fresh processes, interleaved)`,
    );
    notes.push(
      `after activate has returned, the core's require takes ${(core / fixture).toFixed(1)}× the small extension's, ${(core / before).toFixed(2)}× the one bundle's`,
    );
    return {
      summaries: [],
      notes,
      verdicts: [
        {
          what: 'activation bundle (dist/extension.js, minified, as the .vsix ships it)',
          measured: `${bytes} bytes (${kib(bytes)})`,
          target: `< ${TARGET_ACTIVATION_BYTES} bytes (60 KiB)`,
          met: bytes < TARGET_ACTIVATION_BYTES,
        },
        {
          what: 'JavaScript before the first status bar text (dist/extension.js and dist/core.js, minified)',
          measured: `${firstText} bytes (${kib(firstText)})`,
          target: `≤ ${TARGET_FIRST_TEXT_BYTES} bytes (twice the app's own extension's)`,
          met: firstText <= TARGET_FIRST_TEXT_BYTES,
        },
      ],
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

async function buildSubjects(folder: string): Promise<Subject[]> {
  const ours = join(folder, 'ours');
  const built = spawnSync(process.execPath, ['esbuild.mjs', '--production', '--only', 'extension', '--outdir', ours], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`esbuild.mjs failed: ${built.stdout}${built.stderr}`);
  const fixture = join(folder, 'fixture', 'extension.js');
  await esbuild.build({
    ...FIXTURE_OPTIONS,
    entryPoints: [join(repoRoot, 'test', 'extension', 'benchFixture', 'extension.ts')],
    outfile: fixture,
  });
  // One bundle, for the same run: the core and the rest together, as the composition root was
  // before the split, loaded at activation.
  const whole = join(folder, 'whole', 'extension.js');
  await esbuild.build({
    ...FIXTURE_OPTIONS,
    stdin: {
      contents: "export * from './core'; export * from './rest';",
      resolveDir: join(repoRoot, 'src', 'extension'),
      loader: 'ts',
    },
    outfile: whole,
  });
  return [
    { name: 'our activation bundle (dist/extension.js)', file: join(ours, 'extension.js') },
    { name: 'one bundle, the core and the rest loaded at activation', file: whole },
    { name: 'a small dependency-free extension (fixture)', file: fixture },
    { name: 'our core bundle (dist/core.js, once activate has returned)', file: join(ours, 'core.js') },
    { name: 'our rest bundle (dist/rest.js, after the first text)', file: join(ours, 'rest.js') },
  ];
}

/** One `require` of `file` in a fresh Node process, in ms (test/bench/extension/requireTime.mjs). */
function requireMs(file: string): number {
  const timer = join(repoRoot, 'test', 'bench', 'extension', 'requireTime.mjs');
  const run = spawnSync(process.execPath, [timer, file], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`timing the require of ${file} failed: ${run.stderr}`);
  return (JSON.parse(run.stdout) as { ms: number }).ms;
}

function describe(subject: Subject, times: readonly number[]): string {
  const bytes = statSync(subject.file).size;
  const sorted = [...times].sort((a, b) => a - b);
  const low = sorted[0] ?? Number.NaN;
  const high = sorted[sorted.length - 1] ?? Number.NaN;
  return `${subject.name}: ${bytes} bytes (${kib(bytes)}), require ${median(times).toFixed(2)} ms median (${low.toFixed(2)}–${high.toFixed(2)} ms)`;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}
