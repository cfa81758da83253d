/**
 * A program that listens on the user's port while the app's HTTP API is off needs no token to
 * answer. One that answers every poll with a new 900 KB activity id, tracking since a second ago,
 * once made each ledger row 900 KB, and within a dozen polls the ledger's size cap dropped the
 * user's real days. Here the real extension polls such a listener, and the 60 days of history
 * seeded into its real ledger file are all still there after it.
 */
import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import type { TimeTrackerApi } from '../../../src/extension/extension';
import { dayOf, type LedgerRow } from '../../../src/tracker/branchTime/ledgerBook';
import { LedgerStore } from '../../../src/tracker/branchTime/ledgerStore';
import { EXTENSION_ID, storageFolder } from './connected';

const DAY = 86_400_000;
const SEEDED_ROOT = '/srv/billing-app';
/** Answers to GET /status before the ledger is read: enough 900 KB rows to pass its 8 MiB cap. */
const POLLS = 12;

/** A day of billed work in another repository, `daysAgo` days back. */
function seededRow(daysAgo: number): LedgerRow {
  const firstMs = Date.now() - daysAgo * DAY;
  return {
    day: dayOf(firstMs),
    root: SEEDED_ROOT,
    repository: 'billing-app',
    branch: 'main',
    activityID: '6F1C1D2E-0A0B-4C0D-8E0F-00000000000A',
    activityName: 'Invoicing',
    ms: 2 * 3_600_000,
    firstMs,
    lastMs: firstMs + 2 * 3_600_000,
  };
}

describe('a program answering on the user’s port with huge ids', function () {
  this.timeout(120_000);
  let api: TimeTrackerApi;
  let store: LedgerStore;
  let listener: Server;
  const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('timeTracker');
  const seeded = (rows: readonly LedgerRow[]): LedgerRow[] => rows.filter((row) => row.root === SEEDED_ROOT);

  before(async () => {
    api = (await vscode.extensions.getExtension(EXTENSION_ID)!.activate()) as TimeTrackerApi;
    store = new LedgerStore(storageFolder(api), { now: () => Date.now(), keepDays: () => 90 });
    const history = Array.from({ length: 60 }, (_, index) => seededRow(index + 1));
    await store.update((book) => ({ ...book, rows: [...book.rows, ...history] }));
  });

  after(async () => {
    const closed = new Promise<void>((resolve) => listener.close(() => resolve()));
    listener.closeAllConnections();
    await closed;
    await config().update('port', undefined, vscode.ConfigurationTarget.Global);
    await config().update('pollIntervalSeconds', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('timeTracker.clearToken');
    await store.update((book) => ({ ...book, rows: book.rows.filter((row) => row.root !== SEEDED_ROOT) }));
  });

  it('leaves the seeded 60 days of history whole', async () => {
    let polls = 0;
    let reached: () => void = () => undefined;
    const firstPoll = new Promise<void>((resolve) => (reached = resolve));
    const id = (): string => `${polls}`.padEnd(900 * 1024, 'x');
    listener = createServer((request, response) => {
      request.resume();
      const path = request.url ?? '';
      if (path.startsWith('/status') && ++polls === 1) reached();
      const activity = { activityID: id(), activityName: 'Squatter' };
      // Running since an hour ago: each poll's new id is credited the time since the poll before.
      const result = path.startsWith('/status')
        ? { isTracking: true, isOnBreak: false, currentActivity: activity, todaySeconds: 60 }
        : { ...activity, isOnBreak: false, startedAt: new Date(Date.now() - 3_600_000).toISOString() };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, result }));
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    await config().update('pollIntervalSeconds', 2, vscode.ConfigurationTarget.Global);
    await config().update('port', (listener.address() as AddressInfo).port, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('timeTracker.setToken', 'a-token-the-listener-never-checks');
    await firstPoll;
    // Polls asked for one after another, as a 2 s poll asks for them within half a minute.
    while (polls < POLLS) await api.refresh();
    // Writes what this window counted, as it would within a minute, and reads the file again.
    await api.branchTimeSummary('today');
    const book = await store.read();
    assert.equal(seeded(book.rows).length, 60, `${book.rows.length} rows, ${seeded(book.rows).length} seeded`);
    const longest = Math.max(...book.rows.map((row) => row.activityID.length));
    assert.ok(longest <= 128, `a row carries an id of ${longest} characters`);
  });
});
