import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

interface Manifest {
  readonly [field: string]: unknown;
}
interface Rules {
  isPreRelease: (version: string) => boolean;
  releaseTag: (given: string | undefined, env: Readonly<Record<string, string | undefined>>) => string | undefined;
  changelogSection: (changelog: string, heading: string) => string | undefined;
  versionProblems: (facts: { version: string; tag?: string | undefined; changelog: string }) => string[];
  gitHubProject: (repository: unknown) => string | undefined;
  imagesBase: (repository: unknown, tag?: string) => string | undefined;
  listingProblems: (manifest: Manifest) => string[];
  vscePackageArgs: (options: { out: string; version: string; tag?: string }) => string[];
  vsceWarnings: (output: string) => string[];
  markdownImages: (markdown: string) => string[];
  imageProblems: (facts: {
    images: readonly string[];
    imagesBase: string | undefined;
    packaged: ReadonlySet<string>;
    tracked: ReadonlySet<string>;
  }) => string[];
  firstScreenProblems: (readme: string, id: { publisher: string; name: string }) => string[];
}

const repoRoot = join(__dirname, '..', '..', '..', '..');
// scripts/ is plain ESM that tsc does not compile; imported as npm run release:check imports it.
const rules = async (): Promise<Rules> =>
  (await import(pathToFileURL(join(repoRoot, 'scripts', 'release', 'rules.mjs')).href)) as Rules;

const CHANGELOG = [
  '# Changelog',
  '',
  '## [Unreleased]',
  '',
  '### Added',
  '',
  '- Something new.',
  '',
  '## [0.2.0] - 2026-11-20',
  '',
  '### Fixed',
  '',
  '- Something old.',
  '',
  '## [0.1.0] - 2026-11-01',
  '',
].join('\n');

describe('release/rules: what release:check refuses', () => {
  it('takes an odd minor as the pre-release channel, and only a plain major.minor.patch', async () => {
    const { isPreRelease } = await rules();
    assert.equal(isPreRelease('0.1.0'), true);
    assert.equal(isPreRelease('1.3.12'), true);
    assert.equal(isPreRelease('0.2.0'), false);
    assert.equal(isPreRelease('2.10.1'), false);
    assert.equal(isPreRelease('1.3.0-beta.1'), false);
  });

  it("reads the tag from the argument, else from GitHub's ref only when the run is for a tag", async () => {
    const { releaseTag } = await rules();
    assert.equal(releaseTag('v1.2.0', { GITHUB_REF_TYPE: 'tag', GITHUB_REF_NAME: 'v9.9.9' }), 'v1.2.0');
    assert.equal(releaseTag(undefined, { GITHUB_REF_TYPE: 'tag', GITHUB_REF_NAME: 'v1.2.0' }), 'v1.2.0');
    assert.equal(releaseTag(undefined, { GITHUB_REF_TYPE: 'branch', GITHUB_REF_NAME: 'main' }), undefined);
    assert.equal(releaseTag(undefined, {}), undefined);
  });

  it("cuts a version's CHANGELOG section out for the release notes, up to the next section", async () => {
    const { changelogSection } = await rules();
    assert.equal(changelogSection(CHANGELOG, '0.2.0'), '### Fixed\n\n- Something old.');
    assert.equal(changelogSection(CHANGELOG, 'Unreleased'), '### Added\n\n- Something new.');
    assert.equal(changelogSection(CHANGELOG, '0.1.0'), '');
    assert.equal(changelogSection(CHANGELOG, '0.3.0'), undefined);
  });

  it('passes a tag that is v + the version with its CHANGELOG section, and refuses every other', async () => {
    const { versionProblems } = await rules();
    assert.deepEqual(versionProblems({ version: '0.2.0', tag: 'v0.2.0', changelog: CHANGELOG }), []);
    const [wrongTag] = versionProblems({ version: '0.2.0', tag: 'v0.2.1', changelog: CHANGELOG });
    assert.match(wrongTag ?? '', /the tag v0\.2\.1 is not v0\.2\.0/);
    assert.match(
      versionProblems({ version: '0.3.0', tag: 'v0.3.0', changelog: CHANGELOG }).join(),
      /no "## \[0\.3\.0\]"/,
    );
    assert.match(versionProblems({ version: '0.1.0', tag: 'v0.1.0', changelog: CHANGELOG }).join(), /is empty/);
    assert.match(versionProblems({ version: '0.3.0-beta.1', changelog: CHANGELOG }).join(), /not major\.minor\.patch/);
  });

  it('without a tag, wants an [Unreleased] section or the version’s own', async () => {
    const { versionProblems } = await rules();
    assert.deepEqual(versionProblems({ version: '0.3.0', changelog: CHANGELOG }), []);
    const released = CHANGELOG.replace(/## \[Unreleased\][\s\S]*?(?=## \[0\.2\.0\])/, '');
    assert.deepEqual(versionProblems({ version: '0.2.0', changelog: released }), []);
    assert.match(versionProblems({ version: '0.3.0', changelog: released }).join(), /neither an "## \[Unreleased\]"/);
  });

  it('reads the GitHub project from a repository field as vsce does, and points pictures at the tag', async () => {
    const { gitHubProject, imagesBase } = await rules();
    assert.equal(gitHubProject({ type: 'git', url: 'https://github.com/o/r.git' }), 'o/r');
    assert.equal(gitHubProject('https://github.com/o/r'), 'o/r');
    assert.equal(gitHubProject('github:o/r'), 'o/r');
    assert.equal(gitHubProject('https://github.com/o/r/tree/main'), 'o/r');
    assert.equal(gitHubProject('https://gitlab.com/o/r'), undefined);
    assert.equal(gitHubProject(undefined), undefined);
    assert.equal(imagesBase('https://github.com/o/r.git', 'v1.2.0'), 'https://github.com/o/r/raw/v1.2.0/');
    assert.equal(imagesBase('https://github.com/o/r.git'), 'https://github.com/o/r/raw/HEAD/');
  });

  it('passes this package.json as a listing, and names each field a listing lacks', async () => {
    const { listingProblems } = await rules();
    const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as Manifest;
    assert.deepEqual(listingProblems(manifest), []);
    const without = (field: string): Manifest =>
      Object.fromEntries(Object.entries(manifest).filter(([key]) => key !== field));
    for (const field of ['repository', 'bugs', 'homepage', 'qna', 'pricing', 'categories', 'keywords'])
      assert.equal(listingProblems(without(field)).length, 1, field);
    assert.match(listingProblems({ ...manifest, private: true }).join(), /"private": true/);
    assert.match(listingProblems({ ...manifest, categories: ['Time Tracking'] }).join(), /not a Marketplace category/);
    const many = Array.from({ length: 31 }, (_, index) => `k${index}`);
    assert.match(listingProblems({ ...manifest, keywords: many }).join(), /31 keywords; .* at most 30/);
  });

  it('packages a pre-release for an odd minor, and points README links at the tag of a release', async () => {
    const { vscePackageArgs } = await rules();
    assert.deepEqual(vscePackageArgs({ out: 'x.vsix', version: '0.2.0' }), [
      'package',
      '--no-dependencies',
      '--out',
      'x.vsix',
    ]);
    assert.deepEqual(vscePackageArgs({ out: 'x.vsix', version: '0.3.1', tag: 'v0.3.1' }), [
      'package',
      '--no-dependencies',
      '--githubBranch',
      'v0.3.1',
      '--pre-release',
      '--out',
      'x.vsix',
    ]);
  });

  it("finds vsce's warnings, coloured on a terminal or as GitHub's ::warning, and nothing else", async () => {
    const { vsceWarnings } = await rules();
    const output = [
      'Executing prepublish script...',
      '\u001b[43m\u001b[30m WARNING \u001b[39m\u001b[49m LICENSE not found',
      "::warning::A 'repository' field is missing",
      ' INFO  Files included in the VSIX:',
      'DONE  Packaged: x.vsix (20 files, 400 KB)',
      'a line that mentions a WARNING in passing',
    ].join('\n');
    assert.deepEqual(vsceWarnings(output), [
      'WARNING  LICENSE not found',
      "::warning::A 'repository' field is missing",
    ]);
    assert.deepEqual(vsceWarnings('DONE  Packaged: x.vsix\n'), []);
  });

  it('finds Markdown and HTML pictures, but not an <img> written as code', async () => {
    const { markdownImages } = await rules();
    const markdown = [
      '![a](media/a.png) and ![b](<media/b.png> "title")',
      '<img src="media/c.png" width="1"> <IMG alt="x" src=\'media/d.png\'>',
      'A page with `<img src="http://127.0.0.1/status">` gets nothing.',
      '```html',
      '<img src="media/in-fence.png">',
      '```',
      '![a again](media/a.png)',
    ].join('\n');
    assert.deepEqual(markdownImages(markdown), ['media/a.png', 'media/b.png', 'media/c.png', 'media/d.png']);
  });

  it('passes pictures the repository tracks or the package holds, and refuses every other', async () => {
    const { imageProblems } = await rules();
    const base = 'https://github.com/o/r/raw/v1.0.0/';
    const facts = {
      imagesBase: base,
      packaged: new Set(['extension/media/icon.png']),
      tracked: new Set(['media/screenshots/a b.png']),
    };
    const good = [`${base}media/screenshots/a%20b.png`, 'media/icon.png', './media/icon.png?raw=1'];
    assert.deepEqual(imageProblems({ ...facts, images: good }), []);
    const bad = [
      `${base}media/screenshots/gone.png`,
      'media/not-packaged.png',
      'https://example.com/badge.png',
      'http://example.com/a.png',
      `${base}media/icon.svg`,
    ];
    for (const image of bad) assert.equal(imageProblems({ ...facts, images: [image] }).length, 1, image);
    assert.match(imageProblems({ ...facts, images: [bad[0] ?? ''] }).join(), /not a file git tracks/);
  });

  it("holds the README's first screen to the listing's: title, set-up line, no telemetry, picture, both registries", async () => {
    const { firstScreenProblems } = await rules();
    const id = { publisher: 'clessira-tools', name: 'clessira-time-tracker' };
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    assert.deepEqual(firstScreenProblems(readme, id), []);
    // Each broken README, and the one problem it must have.
    const broken: [string, RegExp][] = [
      [readme.replace(/^# [^\n]*\n/, ''), /its title/],
      // The first occurrence only: the Development section further down keeps its own.
      [readme.replace('`npm install && npm test`', '`npm install`'), /set-up line/],
      [readme.replace('no telemetry', 'some telemetry'), /no telemetry/],
      [readme.replace(/<img [^>]*branch-time\.png[^>]*>/, ''), /no picture/],
      [readme.replaceAll('marketplace.visualstudio.com', 'example.com'), /VS Code Marketplace/],
      [readme.replaceAll('open-vsx.org/extension', 'open-vsx.org/x'), /Open VSX/],
    ];
    for (const [text, problem] of broken) {
      const problems = firstScreenProblems(text, id);
      assert.equal(problems.length, 1, problems.join('; '));
      assert.match(problems[0] ?? '', problem);
    }
    // A picture or the set-up line further down is not on the first screen.
    const picture = /\n(<img [^>]*branch-time\.png[^>]*>)\n/.exec(readme)?.[1] ?? '';
    const lowPicture = readme.replace(picture, '').replace('## Install\n', `## Install\n\n${picture}\n`);
    assert.match(firstScreenProblems(lowPicture, id).join(), /no picture/);
    const lowSetUp = readme
      .replace('`npm install && npm test`', '`npm install`')
      .replace('## Install\n', '## Install\n\n`npm install && npm test`\n');
    assert.match(firstScreenProblems(lowSetUp, id).join(), /set-up line/);
  });
});
