import assert from 'node:assert/strict';
import type { Profiler } from 'node:inspector';
import { figuresOf, peerComparison, type ComparedReadings, type Subject } from '../../bench/extension/peerReport';

const OURS = 'clessira.time-tracker';
const PEER = 'NowDoing.nowdoing-vscode';
const MB = 1024 * 1024;

/** A profile of `ms` busy milliseconds, all of them in the bundle of `folder` (an install folder's name). */
function busyIn(folder: string, ms: number): Profiler.Profile {
  const url = `file:///tmp/run/extensions/${folder}/dist/extension.js`;
  return {
    nodes: [
      {
        id: 1,
        callFrame: { functionName: '(root)', url: '', scriptId: '0', lineNumber: 0, columnNumber: 0 },
        children: [2],
      },
      { id: 2, callFrame: { functionName: 'poll', url, scriptId: '1', lineNumber: 0, columnNumber: 0 } },
    ],
    startTime: 0,
    endTime: ms * 1000,
    samples: [2],
    timeDeltas: [ms * 1000],
  };
}

function subject(
  extensionId: string,
  folder: string,
  ms: { idle: number; first: number[]; bytes: number; heapMb: number },
): Subject {
  return {
    extensionId,
    profiles: {
      idle: busyIn(folder, ms.idle),
      idleInUse: busyIn(folder, ms.idle * 2),
      tracking: busyIn(folder, ms.idle * 3),
    },
    ownTicks: 360,
    heapEnd: { heapUsed: (40 + ms.heapMb) * MB, heapTotal: 0, rss: 0, afterGc: true },
    firstText: ms.first.map((correctMs) => ({ correctMs, firstItemMs: correctMs - 100, text: 'Bench' })),
    javaScript: { files: [{ file: 'dist/extension.js', bytes: ms.bytes }], bytes: ms.bytes },
  };
}

/** Profiles of 360 s: one busy ms in them is 10 ms an hour. */
function readings(peer: Subject | undefined): ComparedReadings {
  return {
    profileMs: 360_000,
    windowSeconds: 360,
    ticksPerSecond: 100,
    ours: subject(OURS, `${OURS}-0.1.0`, { idle: 20, first: [900, 700, 800], bytes: 474_000, heapMb: 4.5 }),
    peer: peer === undefined ? undefined : { ...peer, label: `${PEER} 0.8.0` },
    without: { ownTicks: 300, heapEnd: { heapUsed: 40 * MB, heapTotal: 0, rss: 0, afterGc: true } },
  };
}

describe("bench/extension/peerReport: ours beside the app's own extension", () => {
  const peer = subject(PEER, 'nowdoing.nowdoing-vscode-0.8.0', {
    idle: 30,
    first: [950, 600, 1000],
    bytes: 18_563,
    heapMb: 1,
  });

  it('counts each extension by its own bundles, per hour, and the median of its window starts', () => {
    const ours = figuresOf(readings(peer).ours, readings(peer));
    const near = (actual: number, expected: number): void => assert.ok(Math.abs(actual - expected) < 1e-9, `${actual}`);
    near(ours.idleUnused, 0.2);
    near(ours.idleInUse, 0.4);
    near(ours.tracking, 0.6);
    assert.equal(ours.hostCpu, 36);
    assert.equal(ours.firstTextMs, 800);
    assert.equal(ours.javaScriptBytes, 474_000);
    assert.equal(ours.heapShareMb, 4.5);
    // The peer's profile holds the peer's bundle only: ours finds nothing of its own in it.
    assert.equal(figuresOf({ ...readings(peer).ours, profiles: peer.profiles }, readings(peer)).idleUnused, 0);
  });

  it('says for each figure whether ours is at or under the peer', () => {
    const { verdicts } = peerComparison(readings(peer));
    assert.deepEqual(
      verdicts.map((verdict) => verdict.met),
      [true, true, true, true, false, false],
    );
    assert.match(verdicts[4]?.measured ?? '', /474000 bytes \(the app's own: 18563 bytes\)/);
  });

  it('without a peer, gives ours alone and no verdict', () => {
    const { notes, verdicts } = peerComparison(readings(undefined));
    assert.deepEqual(verdicts, []);
    assert.ok(notes.some((note) => note.startsWith('ours: 0.20 s')));
    assert.ok(!notes.some((note) => note.includes("the app's own extension")));
  });
});
