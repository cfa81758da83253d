import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findCapability, type CapabilityReading } from '../../../../src/client/capabilityReader';
import { folderIdentity, nodeFileSystem, type FolderWatch } from '../../../../src/platform/fileSystemPort';
import {
  CAPABILITY_CHECK_INTERVAL_MS,
  CapabilityWatcher,
  sameReading,
} from '../../../../src/tracker/model/capabilityWatcher';
import type { Timers } from '../../../../src/platform/timers';
import { Arrivals } from '../../../support/git';

const path = '/home/u/api-endpoint.json';
const capability = { version: 1, socketPath: '/tmp/app/api.sock', token: 'integration-token', pid: 4242 } as const;
const ready: CapabilityReading = { kind: 'ready', path, capability };

/** Timers that fire only when the test says so. */
class ManualTimers implements Timers {
  readonly pending = new Map<number, { callback: () => void; ms: number }>();
  private next = 1;
  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.next++;
    this.pending.set(id, { callback, ms });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }
  fire(): void {
    const [id, timer] = [...this.pending][0]!;
    this.pending.delete(id);
    timer.callback();
  }
}

/** A folder watch the test drives: which folders are watched for which names, and their callbacks. */
class ManualFolders {
  readonly open = new Map<string, { names: string[]; onChange: () => void; onError: () => void }>();
  readonly closed: string[] = [];
  /** Folders that cannot be watched (yet). */
  readonly missing = new Set<string>();
  readonly watch: FolderWatch = (directory, names, onChange, onError) => {
    if (this.missing.has(directory)) throw Object.assign(new Error(`ENOENT: ${directory}`), { code: 'ENOENT' });
    assert.ok(!this.open.has(directory), `${directory} is watched twice`);
    this.open.set(directory, { names: [...names].sort(), onChange, onError });
    return {
      close: () => {
        this.open.delete(directory);
        this.closed.push(directory);
      },
    };
  };
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('tracker/capabilityWatcher: following the app as it starts, restarts and quits', () => {
  it('reports the first reading and each change, but not a reading that stayed the same', async () => {
    let file: CapabilityReading = { kind: 'absent', path };
    const seen: CapabilityReading['kind'][] = [];
    const timers = new ManualTimers();
    const watcher = new CapabilityWatcher({
      read: () => Promise.resolve(file),
      onChange: (reading) => seen.push(reading.kind),
      timers,
    });
    assert.equal((await watcher.current()).kind, 'absent');
    assert.deepEqual(seen, ['absent']);
    assert.deepEqual(
      [...timers.pending.values()].map((timer) => timer.ms),
      [CAPABILITY_CHECK_INTERVAL_MS],
      'the next look is planned',
    );
    await watcher.check();
    assert.deepEqual(seen, ['absent'], 'nothing changed');
    file = ready; // the user turned the integration on
    await watcher.check();
    file = { kind: 'ready', path, capability: { ...capability, pid: 5000, socketPath: '/tmp/app/new.sock' } }; // the app restarted
    await watcher.check();
    file = { kind: 'stale', path, capability: { ...capability, pid: 5000, socketPath: '/tmp/app/new.sock' } }; // it crashed
    await watcher.check();
    file = { kind: 'absent', path }; // gone
    await watcher.check();
    assert.deepEqual(seen, ['absent', 'ready', 'ready', 'stale', 'absent']);
    watcher.dispose();
    assert.equal(timers.pending.size, 0);
  });

  it('looks again by itself on its timer, once per interval', async () => {
    let reads = 0;
    const timers = new ManualTimers();
    const watcher = new CapabilityWatcher({
      read: () => Promise.resolve({ kind: 'absent', path: `${path}${reads++}` }),
      onChange: () => undefined,
      timers,
    });
    await watcher.current();
    for (let i = 0; i < 3; i++) {
      timers.fire();
      await watcher.current();
      await new Promise((resolve) => setImmediate(resolve));
    }
    assert.equal(reads, 4);
    assert.equal(timers.pending.size, 1, 'never more than one look planned');
    watcher.dispose();
  });

  it('never reads twice at once; a check asked for during a read runs right after it', async () => {
    let release: (() => void) | undefined;
    let reads = 0;
    let inFlight = 0;
    let most = 0;
    const readings: CapabilityReading[] = [{ kind: 'absent', path }, ready];
    const seen: string[] = [];
    const watcher = new CapabilityWatcher({
      read: async () => {
        inFlight++;
        most = Math.max(most, inFlight);
        const reading = readings[Math.min(reads++, readings.length - 1)]!;
        await new Promise<void>((resolve) => (release = resolve));
        inFlight--;
        return reading;
      },
      onChange: (reading) => seen.push(reading.kind),
      timers: new ManualTimers(),
    });
    const first = watcher.check();
    const second = watcher.check();
    release?.();
    await new Promise((resolve) => setImmediate(resolve));
    release?.();
    await Promise.all([first, second]);
    assert.equal(most, 1);
    assert.equal(reads, 2);
    assert.deepEqual(seen, ['absent', 'ready'], 'the file written during the first read is not missed');
    watcher.dispose();
  });

  it('stops looking when told (no timer, no watch, no report), and reads afresh at the next check', async () => {
    let reads = 0;
    const seen: string[] = [];
    const timers = new ManualTimers();
    const folders = new ManualFolders();
    let release: (() => void) | undefined;
    let holdNext = false;
    const watcher = new CapabilityWatcher({
      read: async () => {
        reads++;
        if (holdNext) await new Promise<void>((resolve) => (release = resolve));
        // Stale, not ready: a ready file in a watched folder plans no look of its own.
        return { kind: 'stale', path, capability };
      },
      onChange: (reading) => seen.push(reading.kind),
      timers,
      paths: () => [path],
      watchFolder: folders.watch,
    });
    await watcher.current();
    assert.deepEqual([[...folders.open.keys()], timers.pending.size], [['/home/u'], 1]);
    watcher.stop();
    assert.deepEqual([[...folders.open.keys()], timers.pending.size], [[], 0], 'nothing looks any more');
    // A check under way as it stops reports nothing and plans nothing.
    holdNext = true;
    const underWay = watcher.check();
    watcher.stop();
    release?.();
    await underWay;
    await settle();
    assert.deepEqual([[...folders.open.keys()], timers.pending.size, seen], [[], 0, ['stale']]);
    holdNext = false;
    const before = reads;
    await watcher.current();
    assert.equal(reads, before + 1, 'what was read before the stop is not trusted: read again');
    assert.deepEqual([[...folders.open.keys()], timers.pending.size], [['/home/u'], 1], 'looking again');
    watcher.dispose();
  });

  it('reads a file macOS refused for privacy no more, by timer or watch, until asked (Check Connection)', async () => {
    const container = '/Users/u/Library/Containers/com.mattes.clessira/Data/api-endpoint.json';
    const denied: CapabilityReading = { kind: 'unreadable', path: container, message: 'declined', privacy: true };
    let reads = 0;
    let answer: CapabilityReading = denied;
    const timers = new ManualTimers();
    const folders = new ManualFolders();
    const watcher = new CapabilityWatcher({
      read: () => {
        reads++;
        return Promise.resolve(answer);
      },
      onChange: () => undefined,
      timers,
      paths: () => [container],
      watchFolder: folders.watch,
    });
    assert.equal(await watcher.current(), denied);
    assert.deepEqual([reads, folders.open.size, timers.pending.size], [1, 0, 0], 'no watch, no timer');
    answer = { kind: 'stale', path: container, capability };
    assert.equal((await watcher.check()).kind, 'stale', 'asked: read again');
    assert.deepEqual([reads, folders.open.size, timers.pending.size], [2, 1, 1], 'looking again');
    watcher.dispose();
  });

  describe('a refusal remembered from an earlier start', () => {
    const container = '/Users/u/Library/Containers/com.mattes.clessira/Data/api-endpoint.json';
    const denied: CapabilityReading = { kind: 'unreadable', path: container, message: 'declined', privacy: true };

    /** A watcher remembering `remembered`, whose file reads `answer`, counting reads and changes. */
    const remembering = (remembered: CapabilityReading, answer: () => CapabilityReading) => {
      const seen: CapabilityReading[] = [];
      const counts = { reads: 0 };
      const timers = new ManualTimers();
      const folders = new ManualFolders();
      const watcher = new CapabilityWatcher({
        read: () => {
          counts.reads++;
          return Promise.resolve(answer());
        },
        onChange: (reading) => seen.push(reading),
        timers,
        paths: () => [container],
        watchFolder: folders.watch,
        remembered,
      });
      return { watcher, seen, counts, timers, folders };
    };

    it('is the reading, without a read, a timer or a watch, until asked', async () => {
      const { watcher, seen, counts, timers, folders } = remembering(denied, () => denied);
      assert.equal(await watcher.current(), denied);
      assert.equal(await watcher.current(), denied);
      await settle();
      assert.deepEqual([counts.reads, folders.open.size, timers.pending.size, seen], [0, 0, 0, []]);
      watcher.dispose();
    });

    it('check() reads the file: refused again, it stays held; readable, it is reported and followed', async () => {
      let answer: CapabilityReading = denied;
      const { watcher, seen, counts, timers, folders } = remembering(denied, () => answer);
      assert.equal(await watcher.check(), denied);
      assert.deepEqual([counts.reads, folders.open.size, timers.pending.size, seen], [1, 0, 0, []], 'still held');
      answer = { kind: 'absent', path: container };
      assert.equal((await watcher.check()).kind, 'absent');
      assert.deepEqual([counts.reads, folders.open.size, timers.pending.size], [2, 1, 1], 'looking again');
      assert.deepEqual(
        seen.map((reading) => reading.kind),
        ['absent'],
      );
      watcher.dispose();
    });

    it('a setting change reads nothing while the paths are those refused; other paths are read', async () => {
      let paths = [container];
      let reads = 0;
      const watcher = new CapabilityWatcher({
        read: () => {
          reads++;
          return Promise.resolve(paths[0] === container ? denied : { kind: 'absent', path: paths[0] ?? '' });
        },
        onChange: () => undefined,
        timers: new ManualTimers(),
        paths: () => paths,
        watchFolder: new ManualFolders().watch,
        remembered: denied,
      });
      assert.equal(await watcher.settingsChanged(), denied);
      assert.equal(reads, 0, 'remembered: not read for a setting');
      await watcher.check();
      assert.equal(await watcher.settingsChanged(), denied);
      assert.equal(reads, 1, 'refused on Check Connection: not read again for a setting');
      paths = ['/Users/u/elsewhere/api-endpoint.json'];
      assert.equal((await watcher.settingsChanged()).kind, 'absent');
      assert.equal(reads, 2, 'another file is read');
      watcher.dispose();
    });

    it('anything but a privacy refusal is no memory: the file is read as usual', async () => {
      const unreadable: CapabilityReading = {
        kind: 'unreadable',
        path: container,
        message: 'this user may not read it.',
      };
      for (const remembered of [unreadable, { ...ready, path: container }]) {
        const { watcher, seen, counts, timers } = remembering(remembered, () => ({ kind: 'absent', path: container }));
        assert.equal((await watcher.current()).kind, 'absent', remembered.kind);
        assert.deepEqual([counts.reads, timers.pending.size, seen.length], [1, 1, 1], remembered.kind);
        watcher.dispose();
      }
    });
  });

  it('compares readings by what matters to the connection', () => {
    assert.equal(sameReading(ready, { kind: 'ready', path, capability: { ...capability } }), true);
    assert.equal(sameReading(ready, { kind: 'ready', path, capability: { ...capability, token: 'rotated' } }), false);
    assert.equal(sameReading(ready, { kind: 'stale', path, capability }), false);
    assert.equal(sameReading({ kind: 'invalid', path, message: 'a' }, { kind: 'invalid', path, message: 'b' }), false);
    assert.equal(sameReading({ kind: 'absent', path }, { kind: 'absent', path: `${path}.other` }), false);
  });

  it('looks by itself only every 10 s, so an idle window does not open the missing files every 2 s', async () => {
    const timers = new ManualTimers();
    const watcher = new CapabilityWatcher({
      read: () => Promise.resolve({ kind: 'absent', path }),
      onChange: () => undefined,
      timers,
    });
    await watcher.current();
    assert.equal(CAPABILITY_CHECK_INTERVAL_MS, 10_000);
    assert.deepEqual(
      [...timers.pending.values()].map((timer) => timer.ms),
      [10_000],
    );
    watcher.dispose();
  });

  describe('watching the folders the file may be in', () => {
    it('watches each folder once, for the names in it, and reads at once when one changes, before any timer', async () => {
      const folders = new ManualFolders();
      const timers = new ManualTimers();
      let reads = 0;
      const seen: string[] = [];
      let file: CapabilityReading = { kind: 'absent', path: '/a/x.json' };
      const watcher = new CapabilityWatcher({
        read: () => {
          reads++;
          return Promise.resolve(file);
        },
        onChange: (reading) => seen.push(reading.kind),
        timers,
        paths: () => ['/a/x.json', '/b/y.json', '/a/z.json'],
        watchFolder: folders.watch,
      });
      await watcher.current();
      assert.deepEqual(Object.fromEntries([...folders.open].map(([folder, watch]) => [folder, watch.names])), {
        '/a': ['x.json', 'z.json'],
        '/b': ['y.json'],
      });
      file = { kind: 'ready', path: '/a/x.json', capability }; // the user turns the integration on
      folders.open.get('/a')!.onChange();
      await watcher.current();
      await settle();
      assert.equal(reads, 2, 'read once more, on the event');
      assert.deepEqual(seen, ['absent', 'ready']);
      assert.equal(timers.pending.size, 0, 'no timer while the file is ready in a watched folder');
      assert.equal(folders.open.size, 2, 'reading again does not watch again');
      watcher.dispose();
      assert.deepEqual(folders.closed.sort(), ['/a', '/b']);
      assert.equal(folders.open.size, 0);
    });

    it('while the file is ready and every folder watched, looks only on an event or when asked (the socket refused)', async () => {
      const folders = new ManualFolders();
      folders.missing.add('/b');
      const timers = new ManualTimers();
      let reads = 0;
      let file: CapabilityReading = { kind: 'ready', path: '/a/x.json', capability };
      const watcher = new CapabilityWatcher({
        read: () => {
          reads++;
          return Promise.resolve(file);
        },
        onChange: () => undefined,
        timers,
        paths: () => ['/a/x.json', '/b/y.json'],
        watchFolder: folders.watch,
      });
      await watcher.current();
      assert.deepEqual(
        [reads, [...folders.open.keys()], timers.pending.size],
        [1, ['/a'], 1],
        'a folder that cannot be watched: the timer looks',
      );
      folders.missing.clear();
      timers.fire();
      await settle();
      assert.deepEqual([reads, [...folders.open.keys()].sort(), timers.pending.size], [2, ['/a', '/b'], 0]);
      await watcher.check(); // the session: the socket refused
      folders.open.get('/a')!.onChange(); // the app restarted and wrote the file again
      await settle();
      assert.deepEqual([reads, timers.pending.size], [4, 0], 'each look asked for, and none of its own');
      file = { kind: 'absent', path: '/a/x.json' }; // the app quit
      folders.open.get('/a')!.onChange();
      await settle();
      assert.deepEqual([reads, timers.pending.size], [5, 1], 'gone: the timer looks again, as before');
      watcher.dispose();
    });

    it('tries a folder that cannot be watched again after each read, so one the app makes later is watched', async () => {
      const folders = new ManualFolders();
      folders.missing.add('/Library/Containers/app/Data');
      const timers = new ManualTimers();
      const watcher = new CapabilityWatcher({
        read: () => Promise.resolve({ kind: 'absent', path }),
        onChange: () => undefined,
        timers,
        paths: () => ['/Library/Containers/app/Data/api-endpoint.json'],
        watchFolder: folders.watch,
      });
      await watcher.current();
      assert.equal(folders.open.size, 0);
      assert.equal(timers.pending.size, 1, 'the timer looks meanwhile');
      folders.missing.clear(); // the app was installed
      timers.fire();
      await settle();
      assert.equal(folders.open.size, 1);
      watcher.dispose();
    });

    it("while the default places' folders are missing, watches their nearest ancestor and looks only when it fires", async () => {
      const home = '/home/u';
      const files = [
        `${home}/Library/Containers/a/Data/api-endpoint.json`,
        `${home}/Library/Containers/b/Data/api-endpoint.json`,
      ];
      const there = new Map([[home, 'home']]);
      const folders = new ManualFolders();
      const timers = new ManualTimers();
      const asked: string[] = [];
      let reads = 0;
      const watcher = new CapabilityWatcher({
        read: () => {
          reads++;
          return Promise.resolve({ kind: 'absent', path: files[0]! });
        },
        onChange: () => undefined,
        timers,
        paths: () => files,
        watchFolder: folders.watch,
        folderIdentity: (folder) => {
          asked.push(folder);
          return Promise.resolve(there.get(folder));
        },
      });
      await watcher.current();
      await settle();
      assert.deepEqual(Object.fromEntries([...folders.open].map(([folder, watch]) => [folder, watch.names])), {
        [home]: ['Library'],
      });
      assert.equal(
        timers.pending.size,
        0,
        'no timer: the file cannot appear before its folder, whose ancestor is watched',
      );
      const [readsBefore, askedBefore] = [reads, asked.length];
      await settle();
      assert.deepEqual(
        [reads, asked.length],
        [readsBefore, askedBefore],
        'nothing is read or asked until the watch fires',
      );

      there.set(`${home}/Library`, 'library'); // the app is installed: its folders come, one by one
      there.set(`${home}/Library/Containers`, 'containers');
      folders.open.get(home)!.onChange();
      await settle();
      assert.deepEqual([...folders.open.keys()], [`${home}/Library/Containers`]);
      assert.deepEqual(folders.open.get(`${home}/Library/Containers`)!.names, ['a', 'b']);
      assert.equal(timers.pending.size, 0);

      there.set(`${home}/Library/Containers/a/Data`, 'data');
      there.set(`${home}/Library/Containers/a`, 'a');
      folders.open.get(`${home}/Library/Containers`)!.onChange();
      await settle();
      assert.ok(folders.open.has(`${home}/Library/Containers/a/Data`));
      assert.equal(timers.pending.size, 1, 'a folder of the file is there: the timer looks again, as before');
      watcher.dispose();
    });

    it('follows a new path from the settings: the old folder let go, the new one watched', async () => {
      const folders = new ManualFolders();
      let configured = '/old/api-endpoint.json';
      const watcher = new CapabilityWatcher({
        read: () => Promise.resolve({ kind: 'absent', path: configured }),
        onChange: () => undefined,
        timers: new ManualTimers(),
        paths: () => [configured],
        watchFolder: folders.watch,
      });
      await watcher.current();
      configured = '/new/api-endpoint.json';
      await watcher.check();
      assert.deepEqual([...folders.open.keys()], ['/new']);
      assert.deepEqual(folders.closed, ['/old']);
      configured = '/new/other.json'; // same folder, another name
      await watcher.check();
      assert.deepEqual(folders.open.get('/new')?.names, ['other.json']);
      watcher.dispose();
    });

    it('drops a watch that fails, reads the file again and watches anew', async () => {
      const folders = new ManualFolders();
      let reads = 0;
      const watcher = new CapabilityWatcher({
        read: () => {
          reads++;
          return Promise.resolve({ kind: 'absent', path });
        },
        onChange: () => undefined,
        timers: new ManualTimers(),
        paths: () => [path],
        watchFolder: folders.watch,
      });
      await watcher.current();
      folders.open.get('/home/u')!.onError();
      assert.deepEqual(folders.closed, ['/home/u']);
      await watcher.current();
      await settle();
      // The first read, the one on the failure, and one more once the new watch has begun.
      assert.equal(reads, 3);
      assert.equal(folders.open.size, 1, 'watched again');
      watcher.dispose();
    });

    describe('when the folder is removed and made again (a watch follows the folder it was given, and goes quiet with it)', () => {
      const file = '/home/u/Data/api-endpoint.json';
      const setUp = (identities: Map<string, string>) => {
        const folders = new ManualFolders();
        const timers = new ManualTimers();
        const counts = { reads: 0 };
        const watcher = new CapabilityWatcher({
          read: () => {
            counts.reads++;
            return Promise.resolve({ kind: 'absent', path: file });
          },
          onChange: () => undefined,
          timers,
          paths: () => [file],
          watchFolder: folders.watch,
          folderIdentity: (folder) => Promise.resolve(identities.get(folder)),
        });
        return { folders, timers, counts, watcher };
      };

      it("watches the parent for the folder's name while it is missing, and the folder again once it is back, reading once more", async () => {
        const identities = new Map([
          ['/home/u', 'home'],
          ['/home/u/Data', 'first'],
        ]);
        const { folders, counts, watcher } = setUp(identities);
        await watcher.current();
        assert.deepEqual([...folders.open.keys()], ['/home/u/Data']);
        identities.delete('/home/u/Data'); // removed, the file with it: the watch saw the file go
        await watcher.check();
        assert.deepEqual(Object.fromEntries([...folders.open].map(([folder, watch]) => [folder, watch.names])), {
          '/home/u': ['Data'],
        });
        assert.deepEqual(folders.closed, ['/home/u/Data']);
        const before = counts.reads;
        identities.set('/home/u/Data', 'second'); // made again
        folders.open.get('/home/u')!.onChange();
        await settle();
        assert.deepEqual(Object.fromEntries([...folders.open].map(([folder, watch]) => [folder, watch.names])), {
          '/home/u/Data': ['api-endpoint.json'],
        });
        assert.equal(counts.reads - before, 2, 'read on the event, and once more after the new watch began');
        watcher.dispose();
      });

      it('reads once more after watching again a folder whose watch failed, even when it was back before the next look', async () => {
        // The folder removed, its watch failing, and the folder made again and the file written
        // before the watcher looked: what was written before the new watch began is read then.
        const identities = new Map([['/home/u/Data', 'first']]);
        const { folders, counts, watcher } = setUp(identities);
        await watcher.current();
        identities.set('/home/u/Data', 'second');
        const before = counts.reads;
        folders.open.get('/home/u/Data')!.onError();
        await settle();
        assert.deepEqual([...folders.open.keys()], ['/home/u/Data'], 'the folder watched again');
        assert.equal(counts.reads - before, 2, 'read on the failure, and once more after the new watch began');
        watcher.dispose();
      });

      it('watches the folder that replaced the watched one, found on the next look', async () => {
        const identities = new Map([['/home/u/Data', 'first']]);
        const { folders, timers, counts, watcher } = setUp(identities);
        await watcher.current();
        identities.set('/home/u/Data', 'second'); // removed and made again between two looks, the old watch silent
        const before = counts.reads;
        timers.fire();
        await settle();
        assert.deepEqual(folders.closed, ['/home/u/Data'], 'the old watch is let go');
        assert.deepEqual([...folders.open.keys()], ['/home/u/Data'], 'and the new folder watched');
        assert.equal(counts.reads - before, 2, 'read once more after the new watch began');
        await watcher.check();
        assert.equal(folders.closed.length, 1, 'a folder that stayed is not watched anew');
        watcher.dispose();
      });
    });

    it('with the real folder watch, sees the file written in its folder removed and made again without waiting for the timer', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'tt-capability-rewatch-'));
      try {
        const folder = join(dir, 'Data');
        const file = join(folder, 'api-endpoint.json');
        const write = (pid: number): Promise<void> =>
          writeFile(
            file,
            JSON.stringify({ version: 1, socketPath: join(dir, 'api.sock'), token: 'integration-token', pid }),
            { mode: 0o600 },
          );
        await mkdir(folder);
        await write(1);
        const readings = new Arrivals<CapabilityReading>();
        const watcher = new CapabilityWatcher({
          read: () => findCapability([file], { isRunning: () => true }),
          onChange: readings.push,
          timers: new ManualTimers(), // never fired: only the folder watches can see what follows
          paths: () => [file],
          watchFolder: (watched, names, onChange, onError) =>
            nodeFileSystem.watchDirectory(watched, names, onChange, onError),
          folderIdentity,
        });
        try {
          const pidOf = (reading: CapabilityReading): number | undefined =>
            reading.kind === 'ready' ? reading.capability.pid : undefined;
          await watcher.current();
          await readings.first((reading) => pidOf(reading) === 1, 'the first file');
          await rm(folder, { recursive: true });
          await readings.first((reading) => reading.kind === 'absent', 'the file gone with its folder');
          await mkdir(folder);
          await write(2);
          await readings.first((reading) => pidOf(reading) === 2, 'the file written in the folder made again', 3_000);
        } finally {
          watcher.dispose();
        }
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });

    it('with the real folder watch, finds the file the app writes without waiting for the timer', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'tt-capability-watch-'));
      try {
        const file = join(dir, 'api-endpoint.json');
        const timers = new ManualTimers(); // never fired: only the folder watch can find the file
        let found: (reading: CapabilityReading) => void = () => undefined;
        const ready = new Promise<CapabilityReading>((resolve) => (found = resolve));
        const watcher = new CapabilityWatcher({
          read: () => findCapability([file], { isRunning: () => true }),
          onChange: (reading) => {
            if (reading.kind === 'ready') found(reading);
          },
          timers,
          paths: () => [file],
          watchFolder: (folder, names, onChange, onError) =>
            nodeFileSystem.watchDirectory(folder, names, onChange, onError),
        });
        assert.equal((await watcher.current()).kind, 'absent');
        await writeFile(join(dir, 'unrelated.txt'), 'x');
        await writeFile(
          file,
          JSON.stringify({ version: 1, socketPath: join(dir, 'api.sock'), token: 'integration-token', pid: 4242 }),
          { mode: 0o600 },
        );
        const reading = await ready;
        assert.equal(reading.kind === 'ready' && reading.capability.pid, 4242);
        watcher.dispose();
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  });
});
