// The `restricted` suite's part outside the host (the `driver` of its entry in test/suites.mjs):
// the user's side of the machine before the window opens. The app (a reference server in this
// process) is up and idle with one activity of the user's, the user's settings say private status
// bar and a 2 s poll, Workspace Trust is on (the folder opens in Restricted Mode), and the user's
// branch-time ledger already holds 60 days of history, and today's time on a branch that names a
// ticket. The host suite (./restricted.test.ts) reads the app and the ledger; this driver adds one
// check of its own from the app's side: no request of the window's life started or created an
// activity.
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { freePort, repoRoot } from '../host/common.mjs';

/** What tsc compiled, loaded when the suite runs: the launcher imports this file before it builds. */
const compiled = (...path) => createRequire(import.meta.url)(join(repoRoot, 'out', 'src', ...path));

const EXTENSION_ID = 'clessira-tools.clessira-time-tracker';
/** The user's own activity, which the suite starts in the app as the user would. */
export const USER_ACTIVITY = 'Client work for ACME';
/** Days of history the user's ledger holds before the window opens; the repository says keep 1. */
const SEEDED_DAYS = 60;
/** Where the user worked today, on a branch naming the ticket PROJ-7 (the repository's prefixes leave it out). */
const TICKET_ROOT = '/home/user/shop';
const TICKET_BRANCH = 'feature/PROJ-7-checkout';
const DAY_MS = 24 * 3600_000;

export default async function restrictedDriver() {
  // Hex: a token must not start with "-".
  const token = randomBytes(24).toString('hex');
  const port = await freePort();
  const requests = [];
  const { createReferenceServer } = compiled('server', 'server.js');
  const server = createReferenceServer({
    token,
    seedActivities: [USER_ACTIVITY],
    onRequest: (_line, record) => requests.push(record),
  });
  await server.listen(port);
  return {
    settings: {
      'security.workspace.trust.enabled': true,
      'security.workspace.trust.startupPrompt': 'never',
      'timeTracker.port': port,
      'timeTracker.pollIntervalSeconds': 2,
      'timeTracker.statusBar.private': true,
    },
    // The token as a user without a stored one gives it: connected at once, no first-run notice.
    env: () => ({ SERVICE_TOKEN: token }),
    params: (dirs) => ({
      port,
      token,
      ledgerFile: seedLedger(dirs['user-data']),
      seededDays: SEEDED_DAYS,
      activity: USER_ACTIVITY,
      ticketRoot: TICKET_ROOT,
      ticketBranch: TICKET_BRANCH,
    }),
    stop: () => void server.close(),
    finish: (outcome) => {
      const title = 'the app saw no request of the window start or create an activity but the one the suite started';
      const starts = requests.filter((record) => record.method === 'POST' && record.path === '/activities/start');
      // The suite itself starts the user's activity once, through its own client.
      const failed = starts.length !== 1;
      console.log(`  ${failed ? '-' : '✔'} ${title}${failed ? `: ${starts.length} starts seen` : ''}`);
      return { passes: outcome.passes + (failed ? 0 : 1), failures: outcome.failures + (failed ? 1 : 0) };
    },
  };
}

/** The user's ledger with a row a day for the last SEEDED_DAYS days, in another repository. */
function seedLedger(userData) {
  const { dayOf, serializeBook } = compiled('tracker', 'branchTime', 'ledgerBook.js');
  const { LEDGER_FILE } = compiled('tracker', 'branchTime', 'ledgerStore.js');
  const folder = join(userData, 'User', 'globalStorage', EXTENSION_ID);
  mkdirSync(folder, { recursive: true });
  const now = Date.now();
  const rows = Array.from({ length: SEEDED_DAYS }, (_, index) => {
    const firstMs = now - (index + 1) * DAY_MS;
    return {
      day: dayOf(firstMs),
      root: '/home/user/billing-app',
      repository: 'billing-app',
      branch: 'main',
      activityID: 'A1B2C3D4-0000-4000-8000-000000000001',
      activityName: 'Billing',
      ms: 3600_000,
      firstMs,
      lastMs: firstMs + 3600_000,
    };
  });
  // Today, on a branch that names a ticket: what Copy Summary writes its key for.
  const ticketRow = {
    day: dayOf(now),
    root: TICKET_ROOT,
    repository: 'shop',
    branch: TICKET_BRANCH,
    activityID: 'A1B2C3D4-0000-4000-8000-000000000002',
    activityName: 'Checkout',
    ms: 25 * 60_000,
    firstMs: now - 25 * 60_000,
    lastMs: now,
  };
  const file = join(folder, LEDGER_FILE);
  writeFileSync(
    file,
    serializeBook({ version: 1, owners: [], creditedUntilMs: now - DAY_MS, rows: [...rows, ticketRow] }),
    { mode: 0o600 },
  );
  return file;
}
