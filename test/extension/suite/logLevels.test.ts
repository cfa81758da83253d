/**
 * The log file as a user reads it (VS Code's default level, info): idle polls add nothing to it,
 * a change adds one line. Each request is a debug line, seen only at that level.
 */
import * as assert from 'node:assert/strict';
import { readdir, readFile, watch } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { TimeTrackerApi } from '../../../src/extension/extension';
import type { ReferenceServer } from '../../../src/server/server';
import { kind, until } from './states';
import { connectToNewServer } from './connected';

const TOKEN = 'log-levels-test-token-51c2';

/** A line of the log file: `2026-11-25 10:59:05.513 [info] …`, its time in this machine's zone. */
interface LogLine {
  readonly atMs: number;
  readonly level: string;
  readonly text: string;
}

describe('the log at info level', function () {
  this.timeout(40_000);
  let api: TimeTrackerApi;
  let server: ReferenceServer | undefined;

  before(async () => {
    ({ api, server } = await connectToNewServer(TOKEN));
    // The state may be an earlier suite's: two polls of this server, and the new client has said
    // what it learned on its first answer (the header prefix) before the test begins.
    await polls(api, 2, 10_000);
  });

  after(async () => {
    await server?.close();
    await vscode.commands.executeCommand('timeTracker.clearToken');
  });

  it('writes no line per idle poll, and one line when the app goes offline', async () => {
    const since = Date.now();
    const requestsBefore = statusRequests(server!);
    // Four polls that change nothing: the app answers idle each time.
    await polls(api, 4, 20_000);
    assert.equal(api.state, 'idle');
    assert.ok(statusRequests(server!) - requestsBefore >= 4, 'the polls asked the app');

    await server!.close();
    server = undefined;
    await until(api, kind('offline'), 'offline');
    // Once the offline line is in the file, every line before it is too.
    const lines = await linesSince(api, since, (line) => /offline/i.test(line.text) && line.level !== 'debug');
    const shown = lines.filter((line) => line.level !== 'debug' && line.level !== 'trace');
    assert.deepEqual(
      shown.map((line) => `[${line.level}] ${line.text}`),
      ['[info] Offline: the app does not answer (it is closed, or its switch is off).'],
      'one line for the change, none for the polls',
    );
  });
});

function statusRequests(server: ReferenceServer): number {
  return server.controls.debugView().filter((record) => record.path === '/status').length;
}

/** Resolves after `count` more polls (each fires the state, changed or not); rejects after `ms`. */
function polls(api: TimeTrackerApi, count: number, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = 0;
    const timer = setTimeout(() => {
      subscription.dispose();
      reject(new Error(`only ${seen} of ${count} polls came within ${ms / 1000} s`));
    }, ms);
    const subscription = api.onDidChangeState(() => {
      if (++seen < count) return;
      clearTimeout(timer);
      subscription.dispose();
      resolve();
    });
  });
}

/**
 * The log's lines stamped at or after `sinceMs`, once one of them satisfies `last`. The file is
 * written on a thread of its own: this waits for the folder to change, with a bound.
 */
async function linesSince(api: TimeTrackerApi, sinceMs: number, last: (line: LogLine) => boolean): Promise<LogLine[]> {
  const folder = api.logUri.fsPath;
  // The stamp has milliseconds; the clock read before may be a millisecond ahead of the logger's.
  const read = async (): Promise<LogLine[]> => (await readLog(folder)).filter((line) => line.atMs >= sinceMs - 1);
  const signal = AbortSignal.timeout(5_000);
  const changes = watch(folder, { recursive: true, signal });
  let lines = await read();
  try {
    if (!lines.some(last)) {
      for await (const change of changes) {
        if (change.filename !== null && !change.filename.endsWith('.log')) continue;
        lines = await read();
        if (lines.some(last)) break;
      }
    }
  } catch (error) {
    if (!signal.aborted) throw error;
  }
  // The line may have arrived between the first read and the watch starting.
  lines = await read();
  assert.ok(
    lines.some(last),
    `the log never said it; since the test began it says:\n${lines.map((line) => `[${line.level}] ${line.text}`).join('\n')}`,
  );
  return lines;
}

async function readLog(folder: string): Promise<LogLine[]> {
  const files = (await readdir(folder, { recursive: true })).filter((name) => name.endsWith('.log'));
  const texts = await Promise.all(files.map((name) => readFile(join(folder, name), 'utf8')));
  const lines: LogLine[] = [];
  for (const line of texts.join('\n').split('\n')) {
    const match = /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)\.(\d{3}) \[(\w+)\] (.*)$/.exec(line);
    if (match === null) continue;
    const [year, month, day, hours, minutes, seconds, ms] = match.slice(1, 8).map(Number) as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    lines.push({
      atMs: new Date(year, month - 1, day, hours, minutes, seconds, ms).getTime(),
      level: match[8]!,
      text: match[9]!,
    });
  }
  return lines.sort((a, b) => a.atMs - b.atMs);
}
