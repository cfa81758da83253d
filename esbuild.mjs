// Bundles the extension and the command-line entry points into dist/.
// `--watch` rebuilds on change; `--production` minifies and drops source maps (used for packaging);
// `--only <name>` builds one entry and the entries it loads (the `serve` script needs only the
// server; the extension loads the transport); `--outdir <dir>` writes there instead of dist/ (the
// tests and the bench measure a production build without touching dist/).
//
// The extension is three bundles: dist/extension.js, what `main` loads at activation (the command
// ids and the API, src/extension/extension.ts); dist/core.js, the rest of the extension
// (src/extension/core.ts), which extension.js loads from beside it right after `activate` has
// returned; and dist/transport.js, undici and the client's transport, which
// src/client/lazyTransport.ts, in the core, loads when the first request goes out. The client for
// scripts, dist/client.js, stays one file: it is built with src/client/bundledTransport.ts in
// place of the lazy loader.
import { basename, join } from 'node:path';
import * as esbuild from 'esbuild';

const args = process.argv.slice(2);
const watch = args.includes('--watch');
const production = args.includes('--production');
const onlyIndex = args.indexOf('--only');
const only = onlyIndex >= 0 ? args[onlyIndex + 1] : undefined;
const outdirIndex = args.indexOf('--outdir');
const outdir = outdirIndex >= 0 ? args[outdirIndex + 1] : undefined;

/** Resolves the client's lazy transport loader to the transport itself, bundled in. */
function bundledTransport() {
  return {
    name: 'bundled-transport',
    setup(build) {
      build.onResolve({ filter: /^\.\/lazyTransport$/ }, ({ resolveDir }) => ({
        path: join(resolveDir, 'bundledTransport.ts'),
      }));
    },
  };
}

/**
 * Leaves node:http2 out of a bundle: undici's HTTP/2 client loads it as soon as undici's Client is
 * loaded (about 1 MB of heap in a plain Node process; VS Code's extension host does not load it
 * otherwise), although the transport speaks HTTP/1.1 only. undici loads it in a try and takes a runtime without it as
 * one without HTTP/2, so the module put in its place only says why it is missing.
 */
function withoutHttp2() {
  return {
    name: 'without-http2',
    setup(build) {
      build.onResolve({ filter: /^(node:)?http2$/ }, () => ({ path: 'http2', namespace: 'without-http2' }));
      build.onLoad({ filter: /.*/, namespace: 'without-http2' }, () => ({
        contents:
          "throw new Error('node:http2 is left out of this bundle: the client speaks HTTP/1.1 only (esbuild.mjs)');",
        loader: 'js',
      }));
    },
  };
}

/** @type {Record<string, import('esbuild').BuildOptions>} */
const entries = {
  extension: { entryPoints: ['src/extension/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  core: { entryPoints: ['src/extension/core.ts'], outfile: 'dist/core.js', external: ['vscode'] },
  transport: { entryPoints: ['src/client/transport.ts'], outfile: 'dist/transport.js', plugins: [withoutHttp2()] },
  server: { entryPoints: ['src/server/main.ts'], outfile: 'dist/server.js' },
  client: {
    entryPoints: ['src/client/index.ts'],
    outfile: 'dist/client.js',
    plugins: [bundledTransport(), withoutHttp2()],
  },
};

/** The entries an entry loads at run time: `--only` builds them with it. */
const loads = { extension: ['core', 'transport'] };

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
