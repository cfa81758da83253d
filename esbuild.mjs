// Bundles the extension and the command-line entry points into dist/.
// `--watch` rebuilds on change; `--production` minifies and drops source maps (used for packaging);
// `--only <name>` builds one entry and the entries it loads (the `serve` script needs only the
// server; the extension loads the core, the core the rest); `--outdir <dir>` writes there instead of dist/ (the
// tests and the bench measure a production build without touching dist/).
//
// The extension is three bundles: dist/extension.js, what `main` loads at activation (the command
// ids and the API, src/extension/extension.ts); dist/core.js, the path to the first status bar text
// (src/extension/core.ts: the session and its client, the status bar), which extension.js loads
// from beside it right after `activate` has returned; and dist/rest.js (src/extension/rest.ts: the
// queue, git, links, time by branch, onboarding, the commands), which the core loads once the status
// bar has shown its first state, or when a command needs it. The client for scripts, dist/client.js,
// is one file.
import { basename, join } from 'node:path';
import * as esbuild from 'esbuild';

const args = process.argv.slice(2);
const watch = args.includes('--watch');
const production = args.includes('--production');
const onlyIndex = args.indexOf('--only');
const only = onlyIndex >= 0 ? args[onlyIndex + 1] : undefined;
const outdirIndex = args.indexOf('--outdir');
const outdir = outdirIndex >= 0 ? args[outdirIndex + 1] : undefined;

/** @type {Record<string, import('esbuild').BuildOptions>} */
const entries = {
  extension: { entryPoints: ['src/extension/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  core: { entryPoints: ['src/extension/core.ts'], outfile: 'dist/core.js', external: ['vscode'] },
  rest: { entryPoints: ['src/extension/rest.ts'], outfile: 'dist/rest.js', external: ['vscode'] },
  server: { entryPoints: ['src/server/main.ts'], outfile: 'dist/server.js' },
  client: { entryPoints: ['src/client/index.ts'], outfile: 'dist/client.js' },
};

/** The entries an entry loads at run time: `--only` builds them with it. */
const loads = { extension: ['core', 'rest'] };

if (only !== undefined && !(only in entries)) {
  console.error(`esbuild.mjs: unknown entry "${only}"; expected one of ${Object.keys(entries).join(', ')}.`);
  process.exit(2);
}

const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
};

/** Lets the "npm: watch" task's problem matcher see where each rebuild starts and ends. */
const watchReporter = {
  name: 'watch-reporter',
  setup(build) {
    build.onStart(() => console.log('[watch] build started'));
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      console.log('[watch] build finished');
    });
  },
};

const wanted = only === undefined ? undefined : new Set([only, ...(loads[only] ?? [])]);
const selected = Object.entries(entries).filter(([name]) => wanted === undefined || wanted.has(name));
const placed = (options) =>
  outdir === undefined ? options : { ...options, outfile: join(outdir, basename(options.outfile)) };
const contexts = await Promise.all(
  selected.map(([, options]) =>
    esbuild.context({
      ...common,
      ...placed(options),
      plugins: [...(options.plugins ?? []), ...(watch ? [watchReporter] : [])],
    }),
  ),
);

if (watch) {
  await Promise.all(contexts.map((context) => context.watch()));
} else {
  try {
    await Promise.all(contexts.map((context) => context.rebuild()));
  } finally {
    await Promise.all(contexts.map((context) => context.dispose()));
  }
}
