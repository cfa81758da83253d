/** After the reload: the new extension host reads the time by branch the first one wrote. */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { branchTimeFile, extensionApi } from '../setup';

describe('after the reload: time by branch', () => {
  it('keeps every branch with at least the time it had before the reload', async () => {
    const before = JSON.parse(readFileSync(branchTimeFile(), 'utf8')) as { root: string; branch: string; ms: number }[];
    const today = await (await extensionApi()).branchTimeSummary('today');
    for (const { root, branch, ms } of before) {
      const now =
        today.repositories
          .find((repository) => repository.root === root)
          ?.branches.find((candidate) => candidate.branch === branch)?.ms ?? 0;
      assert.ok(now >= ms, `${branch}: ${now} ms after the reload, ${ms} ms before`);
    }
  });
});
