// What makes a release fit to ship, as pure functions over text and names: the version against the
// tag and CHANGELOG.md, the listing's fields in package.json, the `vsce package` flags, vsce's
// warnings, and the pictures the packaged README shows. scripts/releaseCheck.mjs does the I/O;
// test/unit/release/rules.test.ts holds each rule to its refusals.
import { stripVTControlCharacters } from 'node:util';

/**
 * The Marketplace's categories (VS Code's extension manifest reference); any other is dropped by
 * the Marketplace and hides the extension from the category a user browses.
 */
export const MARKETPLACE_CATEGORIES = [
  'AI',
  'Chat',
  'Data Science',
  'Debuggers',
  'Education',
  'Extension Packs',
  'Formatters',
  'Keymaps',
  'Language Packs',
  'Linters',
  'Machine Learning',
  'Notebooks',
  'Other',
  'Programming Languages',
  'SCM Providers',
  'Snippets',
  'Testing',
  'Themes',
  'Visualization',
];

/** The Marketplace refuses a listing with more keywords (tags) than this. */
export const MAX_KEYWORDS = 30;

const RELEASE_VERSION = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;

/**
 * An odd minor version is the pre-release channel (VS Code's publishing guide): both registries
 * take only `major.minor.patch`, so the channel cannot be told by a `-beta` suffix.
 */
export function isPreRelease(version) {
  const match = RELEASE_VERSION.exec(version);
  return match !== null && Number(match[2]) % 2 === 1;
}

/**
 * The tag a release runs for: the one given, else GitHub's ref name when the run is for a tag (on a
 * branch, GITHUB_REF_NAME is the branch's name and says nothing about a release).
 */
export function releaseTag(given, env) {
  if (given !== undefined && given !== '') return given;
  return env.GITHUB_REF_TYPE === 'tag' && env.GITHUB_REF_NAME ? env.GITHUB_REF_NAME : undefined;
}

/** The body of CHANGELOG.md's `## [heading]` section, without its heading; undefined when there is none. */
export function changelogSection(changelog, heading) {
  const lines = changelog.split(/\r?\n/);
  const start = lines.findIndex((line) => line.trim().startsWith(`## [${heading}]`));
  if (start < 0) return undefined;
  const next = lines.findIndex((line, index) => index > start && /^## /.test(line));
  return lines
    .slice(start + 1, next < 0 ? lines.length : next)
    .join('\n')
    .trim();
}

/**
 * Whether package.json's version, the tag and CHANGELOG.md agree. With a tag (a release): the tag is
 * `v` + the version and CHANGELOG.md has a non-empty section for that version. Without one (a
 * commit on its way): CHANGELOG.md has an `[Unreleased]` section or the version's own, so the notes
 * of the next release have a place. Either way the version is plain `major.minor.patch`, the only
 * shape the Marketplace publishes.
 */
export function versionProblems({ version, tag, changelog }) {
  const problems = [];
  if (!RELEASE_VERSION.test(version ?? ''))
    problems.push(
      `package.json's version "${version}" is not major.minor.patch: the Marketplace publishes no other shape (an odd minor is the pre-release channel)`,
    );
  if (tag !== undefined) {
    if (tag !== `v${version}`) problems.push(`the tag ${tag} is not v${version}, package.json's version`);
    const section = changelogSection(changelog, version);
    if (section === undefined) problems.push(`CHANGELOG.md has no "## [${version}]" section for the release notes`);
    else if (section === '') problems.push(`CHANGELOG.md's "## [${version}]" section is empty`);
  } else if (
    changelogSection(changelog, 'Unreleased') === undefined &&
    changelogSection(changelog, version) === undefined
  ) {
    problems.push(`CHANGELOG.md has neither an "## [Unreleased]" section nor one for ${version}`);
  }
  return problems;
}

/**
 * The GitHub project (`owner/name`) of a repository field, read as vsce reads it to rewrite README
 * links: `https://github.com/owner/name(.git)` or `github:owner/name`.
 */
export function gitHubProject(repository) {
  const url = typeof repository === 'string' ? repository : repository?.url;
  const match = /github(?:\.com\/|:)([^/]+\/[^/]+)(?:\/|$)/.exec(url ?? '');
  return match?.[1]?.replace(/\.git$/i, '');
}

/**
 * Where vsce points the README's relative pictures: the repository's raw files at the tag, or at
 * the default branch (`HEAD`) when there is no tag.
 */
export function imagesBase(repository, tag) {
  const project = gitHubProject(repository);
  return project === undefined ? undefined : `https://github.com/${project}/raw/${tag ?? 'HEAD'}/`;
}

/** What keeps package.json from making a listing a user finds and can ask about. */
export function listingProblems(manifest) {
  const problems = [];
  if (manifest.private === true) problems.push('package.json says "private": true, which vsce refuses to publish');
  if (gitHubProject(manifest.repository) === undefined)
    problems.push(
      'package.json has no GitHub `repository`: the listing links nowhere and README pictures cannot be rewritten',
    );
  for (const field of ['bugs', 'homepage']) {
    if (manifest[field] === undefined) problems.push(`package.json has no \`${field}\` for the listing`);
  }
  if (manifest.qna === undefined)
    problems.push('package.json makes no `qna` choice ("marketplace", false or a URL) for where questions go');
  if (!['Free', 'Trial'].includes(manifest.pricing))
    problems.push(`package.json's \`pricing\` is ${JSON.stringify(manifest.pricing)}, not "Free" or "Trial"`);
  const categories = manifest.categories ?? [];
  if (categories.length === 0) problems.push('package.json names no Marketplace category');
  for (const category of categories.filter((name) => !MARKETPLACE_CATEGORIES.includes(name)))
    problems.push(`"${category}" is not a Marketplace category`);
  const keywords = manifest.keywords ?? [];
  if (keywords.length === 0) problems.push('package.json has no keywords a user searches by');
  if (keywords.length > MAX_KEYWORDS)
    problems.push(`package.json has ${keywords.length} keywords; the Marketplace takes at most ${MAX_KEYWORDS}`);
  return problems;
}

/**
 * The `vsce package` arguments, the one place they are spelled: `npm run package`, the packaged host
 * suite and the release all package alike. The README's relative links are rewritten to the
 * repository (the Marketplace, Open VSX and the Extensions view cannot read a picture inside the
 * package); for a tag they point at that tag, so a later commit cannot change or break a
 * published listing. An odd minor is packaged as a pre-release: both registries read that flag
 * from the package.
 */
export function vscePackageArgs({ out, version, tag }) {
  return [
    'package',
    '--no-dependencies',
    ...(tag === undefined ? [] : ['--githubBranch', tag]),
    ...(isPreRelease(version) ? ['--pre-release'] : []),
    '--out',
    out,
  ];
}

/**
 * The lines of vsce's output that warn. vsce prints ` WARNING ` (coloured) on a terminal and
 * GitHub's `::warning` command inside GitHub Actions; a warning is what a listing gets wrong
 * quietly, so each one fails the check.
 */
export function vsceWarnings(output) {
  return output
    .split(/\r?\n/)
    .map((line) => stripVTControlCharacters(line).trim())
    .filter((line) => /^(WARNING\b|::warning\b)/.test(line));
}

/**
 * The image sources a Markdown text shows: `![alt](src)` and `<img src="…">`, outside fenced code
 * and code spans (where an `<img>` is text, as the README's own example of a page's request is).
 */
export function markdownImages(markdown) {
  const prose = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/(`+)[\s\S]*?\1/g, '');
  return [
    ...new Set(
      [
        ...prose.matchAll(
          /!\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)|<img\b[^>]*?\bsrc\s*=\s*(?:"([^"]*)"|'([^']*)')/gi,
        ),
      ].map((match) => match[1] ?? match[2] ?? match[3] ?? ''),
    ),
  ];
}

const PICTURE = /\.(png|jpe?g|gif|webp)$/i;

/**
 * Why each picture of the packaged README would not show on a listing. A picture is reachable when
 * it is a relative path the package holds, or a URL under `imagesBase` (where vsce rewrote the
 * repository's relative paths) to a file the repository tracks. Anything else cannot be checked
 * without the network, so it is refused: the listing's pictures live in this repository. SVG is
 * refused as vsce refuses it from untrusted hosts.
 */
export function imageProblems({ images, imagesBase, packaged, tracked }) {
  const problems = [];
  for (const source of images) {
    const path = source.split(/[?#]/)[0] ?? '';
    if (!PICTURE.test(path)) {
      problems.push(`${source}: not a PNG, JPEG, GIF or WebP picture (vsce and the Marketplace refuse SVG)`);
    } else if (imagesBase !== undefined && path.startsWith(imagesBase)) {
      const inRepository = decodeURI(path.slice(imagesBase.length));
      if (!tracked.has(inRepository))
        problems.push(`${source}: ${inRepository} is not a file git tracks, so the listing's link to it breaks`);
    } else if (/^[a-z][\w+.-]*:/i.test(path)) {
      problems.push(
        `${source}: not from this repository${imagesBase === undefined ? '' : ` (${imagesBase})`}, so nothing here can see that it shows`,
      );
    } else {
      const inPackage = path.replace(/^\.\//, '');
      if (!packaged.has(`extension/${inPackage}`))
        problems.push(`${source}: a relative path the package does not hold (and the Marketplace cannot show)`);
    }
  }
  return problems;
}

/** The one line that builds and tests the extension from source; `.ci/run` runs the same `npm test`. */
const SET_UP_LINE = 'npm install && npm test';

/**
 * What the README's first screen (up to its first `##` section), the top of both listings, lacks:
 * the title, what the extension does with the sentence that nothing leaves the computer, one
 * picture, where to install it from (the Marketplace and Open VSX), and the one line a developer
 * builds and tests it with.
 */
export function firstScreenProblems(readme, { publisher, name }) {
  const firstScreen = readme.split(/^## /m)[0] ?? '';
  const prose = firstScreen.replace(/\s+/g, ' ');
  const problems = [];
  if (!/^# \S/.test(readme)) problems.push('README.md does not open with its title (a "# " line)');
  if (!firstScreen.includes(`\`${SET_UP_LINE}\``))
    problems.push(`the first screen does not give the set-up line \`${SET_UP_LINE}\``);
  if (!prose.includes('sends nothing but to the app on this computer; no telemetry'))
    problems.push('the first screen does not say "sends nothing but to the app on this computer; no telemetry"');
  if (markdownImages(firstScreen).length === 0) problems.push('the first screen shows no picture');
  const registries = {
    'the VS Code Marketplace': `https://marketplace.visualstudio.com/items?itemName=${publisher}.${name}`,
    'Open VSX': `https://open-vsx.org/extension/${publisher}/${name}`,
  };
  for (const [registry, url] of Object.entries(registries)) {
    if (!firstScreen.includes(url)) problems.push(`the first screen does not link ${registry} (${url})`);
  }
  return problems;
}
