/** Before the reload: time tracked on the workspace's branch goes into the time-by-branch ledger. */
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { kind, until } from '../../suite/states';
import { branchTimeFile, extensionApi, startApp } from '../setup';

describe('before the reload: time by branch', function () {
  this.timeout(60_000);

  // The launcher's user settings poll every 2 s; writing the settings here would rewrite that file
  // under the suites that follow (the port the app listens on is in it too).
  it('counts the time tracked on the branch checked out, and writes it down', async () => {
    const server = await startApp();
    try {
      const api = await extensionApi();
      await until(api, kind('idle'), 'idle');
      await vscode.commands.executeCommand('timeTracker.start', { name: 'Before reload', createIfMissing: true });
      await until(api, kind('tracking'), 'tracking');
      await new Promise<void>((resolve) => {
        let polls = 0;
        const subscription = api.onDidChangeState(() => {
          if (++polls < 3) return;
          subscription.dispose();
          resolve();
        });
      });
      await vscode.commands.executeCommand('timeTracker.stop');
      await until(api, kind('idle'), 'stopped');
      const today = await api.branchTimeSummary('today');
      const branches = today.repositories.flatMap((repository) =>
        repository.branches.map((branch) => ({ root: branch.root, branch: branch.branch, ms: branch.ms })),
      );
      assert.ok(branches.length > 0 && branches.every((branch) => branch.ms > 0), JSON.stringify(branches));
      writeFileSync(branchTimeFile(), `${JSON.stringify(branches)}\n`);
    } finally {
      await server.close();
    }
  });
});
