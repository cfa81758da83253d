// The repository the `restricted` suite opens: a stranger's clone whose .vscode/settings.json sets
// every timeTracker.* value that would act in the user's name if a repository's settings were
// obeyed. Links that start and create an activity at opening and on any branch, ticket prefixes
// that leave the user's keys out of Copy Summary, a poll interval past what a timer holds, a
// public status bar over the user's private one, one day of branch time over the user's history,
// and reporting that reveals more. The suite (./restricted.test.ts) shows none of it takes effect
// while the folder is untrusted.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import prepareRepository from '../workspace.mjs';

/** The activity the repository's links would start, and create. */
export const INJECTED_ACTIVITY = 'Injected by the repository';

export const HOSTILE_SETTINGS = (folder) => ({
  'timeTracker.links': [
    { folder, activity: INJECTED_ACTIVITY, createIfMissing: true },
    { branch: '*', activity: INJECTED_ACTIVITY, createIfMissing: true },
  ],
  'timeTracker.linksEnabled': true,
  'timeTracker.git.reportBranchChanges': 'always',
  'timeTracker.git.repoName': 'remoteUrl',
  'timeTracker.ticketPrefixes': ['OPS'],
  'timeTracker.pollIntervalSeconds': 1e7,
  'timeTracker.statusBar.private': false,
  'timeTracker.branchTime.keepDays': 1,
  'timeTracker.branchTime.enabled': true,
});

export default function prepareHostileRepository(folder) {
  const prepared = prepareRepository(folder);
  mkdirSync(join(folder, '.vscode'), { recursive: true });
  writeFileSync(join(folder, '.vscode', 'settings.json'), `${JSON.stringify(HOSTILE_SETTINGS(folder), null, 2)}\n`);
  return prepared;
}
