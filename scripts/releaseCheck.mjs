// `npm run release:check [-- <tag>] [-- --out <file.vsix>] [-- --notes <file.md>]`: every step
// of a release that needs no registry, so that a release which would fail is found on a commit,
// not on the tag. `npm test` runs it (test/run.mjs); the release workflow runs it with the tag,
// `--out` and `--notes` (the version's CHANGELOG.md section), and publishes the very file it
// checked. Without a tag (none given, and the run is not for a tag) the version must still be
// major.minor.patch and CHANGELOG.md must have an [Unreleased] section or the version's.
//
// Steps: the version, tag and CHANGELOG.md agree; package.json and the README's first screen (the
// title, the set-up line, the no-telemetry sentence, a picture, both registries) are fit for a
// listing; `vsce package` says no warning; the package holds what ships and is a pre-release
// exactly for an odd minor; ovsx reads it as it reads a package it publishes (its offline checks:
// the manifest's publisher, name, version and a license; the rest of its checks are the
// registry's); every picture of the packaged README is a file the package holds or a file the
// repository tracks.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { inspectVsix, packageVsix, zipEntries, zipEntryData } from '../test/extension/host/vsix.mjs';
import {
  changelogSection,
  firstScreenProblems,
  imageProblems,
  imagesBase,
  isPreRelease,
  listingProblems,
  markdownImages,
  releaseTag,
  versionProblems,
  vsceWarnings,
} from './release/rules.mjs';

const PRE_RELEASE_PROPERTY = 'Microsoft.VisualStudio.Code.PreRelease';

/**
 * Runs every step on the checkout at `root` and returns each step's title with its problems (none
 * for a step that passed). `out` keeps the package there; without it the package goes with its
 * temporary folder.
 */
export async function releaseCheck({ root, tag, out }) {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const changelog = readFileSync(join(root, 'CHANGELOG.md'), 'utf8');
  const steps = [
    {
      title: `version ${manifest.version}, ${tag === undefined ? 'no tag' : `tag ${tag}`} and CHANGELOG.md agree`,
      problems: versionProblems({ version: manifest.version, tag, changelog }),
    },
    { title: 'package.json is fit for a listing', problems: listingProblems(manifest) },
    {
      title: "README.md's first screen is the listing's: title, set-up line, no telemetry, a picture, both registries",
      problems: firstScreenProblems(readFileSync(join(root, 'README.md'), 'utf8'), manifest),
    },
  ];
  const workDir = mkdtempSync(join(tmpdir(), 'release-check-'));
  try {
    const vsix = out === undefined ? join(workDir, 'release.vsix') : resolve(out);
    let output;
    try {
      output = packageVsix(root, join(workDir, 'tree'), vsix, tag === undefined ? {} : { tag });
    } catch (error) {
      steps.push({ title: '`vsce package`', problems: [error.message] });
      return steps;
    }
    steps.push({ title: '`vsce package`, with no warning', problems: vsceWarnings(output) });
    steps.push(...(await packageSteps({ root, vsix, manifest, tag, tree: join(workDir, 'tree') })));
    return steps;
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

/** The steps that read the package itself. */
async function packageSteps({ root, vsix, manifest, tag, tree }) {
  const { entries, problems } = inspectVsix(vsix, { publisher: manifest.publisher, name: manifest.name });
  const buffer = readFileSync(vsix);
  const read = (name) => {
    const entry = entries.find((candidate) => candidate.name === name);
    return entry === undefined ? '' : zipEntryData(buffer, entry).toString('utf8');
  };
  const tracked = trackedFiles(root);
  const preRelease = read('extension.vsixmanifest').includes(`Id="${PRE_RELEASE_PROPERTY}"`);
  const channel =
    preRelease === isPreRelease(manifest.version)
      ? []
      : [
          `the package is ${preRelease ? '' : 'not '}a pre-release, but ${manifest.version}'s minor is ${preRelease ? 'even' : 'odd'}`,
        ];
  return [
    { title: 'the package holds what ships, and nothing else', problems },
    {
      title: `the package is ${isPreRelease(manifest.version) ? 'a pre-release (odd minor)' : 'a release (even minor)'}`,
      problems: channel,
    },
    { title: 'ovsx reads the package (its offline checks)', problems: await ovsxProblems(vsix, tree) },
    {
      title: "the packaged README's pictures are reachable",
      problems: [
        ...(tracked.error === undefined ? [] : [tracked.error]),
        ...imageProblems({
          images: markdownImages(read('extension/readme.md')),
          imagesBase: imagesBase(manifest.repository, tag),
          packaged: new Set(zipEntries(buffer).map((entry) => entry.name)),
          tracked: tracked.files,
        }),
      ],
    },
  ];
}

/**
 * What ovsx itself finds without the registry: it reads the manifest from the package as `ovsx
 * publish` does, requires publisher, name and version, and a license (the one check Open VSX adds).
 */
async function ovsxProblems(vsix, tree) {
  try {
    const { readVSIXPackage } = await import('ovsx/lib/zip.js');
    const { validateManifest, isLicenseOk } = (await import('ovsx')).default;
    const manifest = await readVSIXPackage(vsix);
    validateManifest(manifest);
    return (await isLicenseOk(tree, manifest)) ? [] : ['no license: Open VSX accepts no extension without one'];
  } catch (error) {
    return [`ovsx: ${error.message}`];
  }
}

/** The files git tracks (what the repository's raw URLs serve once pushed), or why git could not say. */
function trackedFiles(root) {
  const result = spawnSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' });
  if (result.status !== 0)
    return { files: new Set(), error: `git ls-files failed: ${(result.stderr || result.error?.message || '').trim()}` };
  return { files: new Set(result.stdout.split('\0').filter((path) => path !== '')) };
}

/** The release's notes: the version's CHANGELOG.md section, or [Unreleased] for a check without a tag. */
function writeNotes(root, file) {
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const changelog = readFileSync(join(root, 'CHANGELOG.md'), 'utf8');
  const notes = changelogSection(changelog, version) ?? changelogSection(changelog, 'Unreleased') ?? '';
  writeFileSync(resolve(file), `${notes}\n`);
  console.log(`release notes (CHANGELOG.md, ${version}) written to ${file}`);
}

function main() {
  let values;
  let positionals;
  try {
    ({ values, positionals } = parseArgs({
      options: { out: { type: 'string' }, notes: { type: 'string' } },
      allowPositionals: true,
    }));
  } catch (error) {
    console.error(
      `release:check: ${error.message}. Usage: npm run release:check [-- <tag>] [-- --out <file.vsix>] [-- --notes <file.md>]`,
    );
    process.exit(2);
  }
  const tag = releaseTag(positionals[0], process.env);
  const root = fileURLToPath(new URL('..', import.meta.url));
  return releaseCheck({ root, tag, out: values.out }).then((steps) => {
    for (const { title, problems } of steps) {
      console.log(`${problems.length === 0 ? '✓' : '✗'} ${title}`);
      for (const problem of problems) console.log(`    ${problem}`);
    }
    const failed = steps.filter((step) => step.problems.length > 0).length;
    console.log(`\nrelease:check: ${steps.length - failed} passed, ${failed} failed`);
    process.exitCode = failed > 0 ? 1 : 0;
    if (failed === 0 && values.notes !== undefined) writeNotes(root, values.notes);
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
