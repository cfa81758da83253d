// `npm run bench -- bundle` runs this once per sample, in a fresh Node process: it times one
// `require` of the bundle named on its command line and prints {"ms": N} on stdout. The bundle's
// `require('vscode')` gets a stand-in that answers every property and call (no bundle here reads
// VS Code at load beyond naming it), so what is timed is reading, compiling and running the
// bundle's top level, as the extension host's `require` of `main` does before `activate`.
import Module, { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';

const bundle = process.argv[2];
if (bundle === undefined) {
  console.error('usage: node requireTime.mjs <bundle.js>');
  process.exit(2);
}

/** Any property, call or `new` of it gives it back: enough for a bundle's top level. */
const standIn = new Proxy(function standIn() {}, {
  get: (target, key) => (key === 'prototype' ? target.prototype : standIn),
  apply: () => standIn,
  construct: () => standIn,
});
const load = Module._load;
Module._load = function loadWithStandIn(request, ...rest) {
  return request === 'vscode' ? standIn : load.call(this, request, ...rest);
};

const require = createRequire(import.meta.url);
const started = performance.now();
require(bundle);
const ms = performance.now() - started;
process.stdout.write(JSON.stringify({ ms }));
