// Builds the .vsix as `npm run package` does, and reads what is inside it, without new dependencies
// (Node's zlib inflates the one file that is read).
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateRawSync } from 'node:zlib';
import { vscePackageArgs } from '../../../scripts/release/rules.mjs';

const VSCE = fileURLToPath(new URL('../../../node_modules/.bin/vsce', import.meta.url));

/** A .vsix must weigh less: 1 MB, in decimal so that it is under 1 MB however one reads it. */
export const MAX_VSIX_BYTES = 1_000_000;

/** Top-level entries of the working tree that are not copied for packaging. */
const NOT_COPIED = new Set(['.git', 'node_modules', '.test-cache', '.vscode-test']);

/**
 * Runs `vsce package` with the flags every package is built with (vscePackageArgs: those of
 * `npm run package`, and for a release its tag) on a copy of the working tree in `workDir`
 * (node_modules linked, not copied). vsce's `vscode:prepublish` writes the minified bundle over
 * dist/extension.js; in the copy, the repository's dev bundle and its source maps stay as they
 * are, and a build someone else starts meanwhile cannot end up in the package. Returns what vsce
 * printed, for its warnings.
 */
export function packageVsix(repoRoot, workDir, outFile, { tag } = {}) {
  cpSync(repoRoot, workDir, {
    recursive: true,
    filter: (source) => {
      const path = relative(repoRoot, source);
      return !NOT_COPIED.has(path.split('/')[0]) && !(path === basename(path) && path.endsWith('.vsix'));
    },
  });
  symlinkSync(join(repoRoot, 'node_modules'), join(workDir, 'node_modules'), 'dir');
  const { version } = JSON.parse(readFileSync(join(workDir, 'package.json'), 'utf8'));
  return runVsce(workDir, vscePackageArgs({ out: outFile, version, tag }));
}

/**
 * The repository's own vsce with `args` in `workDir` (npx would look for one in `workDir`); returns
 * what it printed, for its warnings, and throws with vsce's words when it fails.
 */
export function runVsce(workDir, args) {
  const result = spawnSync(VSCE, args, {
    cwd: workDir,
    encoding: 'utf8',
    // No answer to a question vsce asks: a prompt fails the run instead of waiting.
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 5 * 60_000,
  });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  if (result.status !== 0) {
    throw new Error(`\`vsce package\` failed (${result.status ?? result.signal ?? result.error?.message}):\n${output}`);
  }
  return output;
}

/** The central directory of a zip file: name, sizes and where each entry's data starts. */
export function zipEntries(buffer) {
  const END_OF_DIRECTORY = 0x06054b50;
  let end = -1;
  for (let at = buffer.length - 22; at >= Math.max(0, buffer.length - 22 - 0xffff); at--) {
    if (buffer.readUInt32LE(at) === END_OF_DIRECTORY) {
      end = at;
      break;
    }
  }
  if (end < 0) throw new Error('not a zip file (no end of central directory)');
  const count = buffer.readUInt16LE(end + 10);
  let at = buffer.readUInt32LE(end + 16);
  const entries = [];
  for (let index = 0; index < count; index++) {
    if (buffer.readUInt32LE(at) !== 0x02014b50) throw new Error(`broken central directory at byte ${at}`);
    const nameLength = buffer.readUInt16LE(at + 28);
    entries.push({
      name: buffer.toString('utf8', at + 46, at + 46 + nameLength),
      method: buffer.readUInt16LE(at + 10),
      compressedSize: buffer.readUInt32LE(at + 20),
      size: buffer.readUInt32LE(at + 24),
      headerOffset: buffer.readUInt32LE(at + 42),
    });
    at += 46 + nameLength + buffer.readUInt16LE(at + 30) + buffer.readUInt16LE(at + 32);
  }
  return entries;
}

/** One entry's bytes: stored (method 0) or deflated (method 8). */
export function zipEntryData(buffer, entry) {
  const header = entry.headerOffset;
  const start = header + 30 + buffer.readUInt16LE(header + 26) + buffer.readUInt16LE(header + 28);
  const data = buffer.subarray(start, start + entry.compressedSize);
  if (entry.method === 0) return data;
  if (entry.method === 8) return inflateRawSync(data);
  throw new Error(`${entry.name}: unsupported compression method ${entry.method}`);
}

/**
 * What may ship, as paths inside the .vsix: vsce's own two files, the manifest, the bundle, the
 * documents, media, and the manifest's translations (package.nls*.json, l10n/). Anything else is
 * refused, so a file .vscodeignore lets in by mistake is caught even when no rule below names it.
 */
const SHIPPED = [
  /^extension\.vsixmanifest$/,
  /^\[Content_Types\]\.xml$/,
  /^extension\/package\.json$/,
  /^extension\/package\.nls(\.[\w-]+)?\.json$/,
  /^extension\/l10n\/bundle\.l10n(\.[\w-]+)?\.json$/,
  /^extension\/dist\/(extension|core|rest)\.js$/,
  /^extension\/(readme\.md|changelog\.md|LICENSE\.txt)$/,
  /^extension\/media\/[\w./-]+\.(png|jpe?g|gif|webp|svg|md)$/,
];

/**
 * The bundles `main` loads later, from beside it (esbuild.mjs, src/platform/besideModule.ts): each must ship, minified.
 */
const LOADED_BUNDLES = ['extension/dist/core.js', 'extension/dist/rest.js'];

/**
 * What is wrong with a package of these entry names and this size: 1 MB or more, or anything
 * not meant to ship (sources, tests, compiled tests, dependencies, source maps, and whatever else
 * SHIPPED does not name). One sentence a problem; none for a good package.
 */
export function shippingProblems(names, bytes) {
  const problems = [];
  if (bytes >= MAX_VSIX_BYTES)
    problems.push(`it weighs ${bytes} bytes, not under the limit of ${MAX_VSIX_BYTES} (1 MB)`);
  for (const path of names.filter((name) => !name.endsWith('/'))) {
    const inside = path.replace(/^extension\//, '');
    if (/\.map$/i.test(path)) problems.push(`it holds a source map: ${path}`);
    else if (/(^|\/)node_modules\//.test(inside)) problems.push(`it holds node_modules/: ${path}`);
    else if (/^(src|test|out)\//.test(inside)) problems.push(`it holds ${inside.split('/')[0]}/: ${path}`);
    else if (/(^|\/)(tests?|__tests__|suite)\/|\.(test|spec)\.[cm]?[jt]s$/i.test(inside))
      problems.push(`it holds a test: ${path}`);
    else if (/\.[cm]?tsx?$/i.test(inside)) problems.push(`it holds a source file: ${path}`);
    else if (!SHIPPED.some((pattern) => pattern.test(path)))
      problems.push(`it holds a file not meant to ship: ${path}`);
  }
  return problems;
}

/**
 * Reads a .vsix and lists what is wrong with it: shippingProblems, a manifest that does not name
 * the expected extension, an icon it names but lacks, or a `main` bundle (or a bundle it loads
 * later, LOADED_BUNDLES) that is missing or still the dev build.
 */
export function inspectVsix(file, { publisher, name }) {
  const buffer = readFileSync(file);
  const entries = zipEntries(buffer);
  const bytes = statSync(file).size;
  const problems = shippingProblems(
    entries.map((entry) => entry.name),
    bytes,
  );
  const byName = new Map(entries.map((entry) => [entry.name, entry]));
  const manifestEntry = byName.get('extension/package.json');
  if (manifestEntry === undefined)
    return { bytes, entries, problems: [...problems, 'it has no extension/package.json'] };
  const manifest = JSON.parse(zipEntryData(buffer, manifestEntry).toString('utf8'));
  if (manifest.publisher !== publisher || manifest.name !== name) {
    problems.push(`its manifest names ${manifest.publisher}.${manifest.name}, not ${publisher}.${name}`);
  }
  if (manifest.icon !== undefined && !byName.has(`extension/${manifest.icon}`))
    problems.push(`its icon ${manifest.icon} is missing`);
  const mainPath = `extension/${String(manifest.main).replace(/^\.\//, '')}`;
  const mainEntry = byName.get(mainPath) ?? byName.get(`${mainPath}.js`);
  if (mainEntry === undefined) {
    problems.push(`its main file ${manifest.main} is missing`);
  } else if (/\/\/# sourceMappingURL=/.test(zipEntryData(buffer, mainEntry).toString('utf8'))) {
    problems.push(
      `${mainEntry.name} is the dev bundle (it points to a source map): vscode:prepublish did not build the production bundle`,
    );
  }
  for (const name of LOADED_BUNDLES) {
    const entry = byName.get(name);
    if (entry === undefined) problems.push(`${name} is missing: the extension loads it from beside main`);
    else if (/\/\/# sourceMappingURL=/.test(zipEntryData(buffer, entry).toString('utf8')))
      problems.push(`${name} is the dev bundle (it points to a source map)`);
  }
  return { bytes, entries, manifest, problems };
}

/** The images a Markdown text shows from relative paths: `![alt](path)` and `<img src="path">`. */
export function relativeImages(markdown) {
  const paths = [
    ...markdown.matchAll(/!\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)|<img\b[^>]*\bsrc="([^"]+)"/g),
  ].map((match) => match[1] ?? match[2]);
  return [
    ...new Set(
      paths
        .filter((path) => !/^[a-z][\w+.-]*:/i.test(path) && !path.startsWith('#'))
        .map((path) => path.replace(/^\.\//, '').split(/[?#]/)[0]),
    ),
  ];
}
