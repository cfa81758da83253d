// Bundles the extension and the command-line entry points into dist/.
// `--watch` rebuilds on change; `--production` minifies and drops source maps (used for packaging);
// `--only <name>` builds one entry (the `serve` script needs only the server).
import * as esbuild from 'esbuild';

const args = process.argv.slice(2);
const watch = args.includes('--watch');
const production = args.includes('--production');
const onlyIndex = args.indexOf('--only');
const only = onlyIndex >= 0 ? args[onlyIndex + 1] : undefined;

/** @type {Record<string, import('esbuild').BuildOptions>} */
const entries = {
  extension: { entryPoints: ['src/extension/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  server: { entryPoints: ['src/server/main.ts'], outfile: 'dist/server.js' },
  client: { entryPoints: ['src/client/index.ts'], outfile: 'dist/client.js' },
};

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

const selected = Object.entries(entries).filter(([name]) => only === undefined || name === only);
const contexts = await Promise.all(selected.map(([, options]) => esbuild.context({ ...common, ...options, plugins: watch ? [watchReporter] : [] })));

if (watch) {
  await Promise.all(contexts.map((context) => context.watch()));
} else {
  try {
    await Promise.all(contexts.map((context) => context.rebuild()));
  } finally {
    await Promise.all(contexts.map((context) => context.dispose()));
  }
}
