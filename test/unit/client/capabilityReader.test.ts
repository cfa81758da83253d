import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { chmod, chown, lchown, mkdir, mkdtemp, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultCapabilityPaths, findCapability, type CapabilityChecks } from '../../../src/client/capabilityReader';
import { processIsRunning } from '../../../src/platform/processes';
import { formatCapability } from '../../../src/protocol/capability';

const running = (): boolean => true;
/** One file, read as the session reads its one configured path. */
const readCapabilityFile = (path: string, checks: CapabilityChecks) => findCapability([path], checks);
const capability = { socketPath: '/tmp/app/api.sock', token: 'capability-token', pid: 4242 };

describe('client/capabilityReader: reading the VS Code integration file', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tt-cap-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('looks where the app writes it: the pre-rebrand container first', () => {
    assert.deepEqual(defaultCapabilityPaths('/Users/u'), [
      '/Users/u/Library/Containers/com.mattes.nowdoing/Data/api-endpoint.json',
      '/Users/u/Library/Containers/com.mattes.clessira/Data/api-endpoint.json',
    ]);
  });

  it("says a Mac's privacy consent refused a file in the app's container, not that this user may not read it", async () => {
    const container = '/Users/u/Library/Containers/com.mattes.clessira/Data/api-endpoint.json';
    const refused = (): Promise<never> =>
      Promise.reject(Object.assign(new Error('EPERM: operation not permitted, open'), { code: 'EPERM' }));
    const onMac = await readCapabilityFile(container, { platform: 'darwin', read: refused });
    assert.ok(onMac.kind === 'unreadable' && onMac.privacy === true);
    assert.match(onMac.message, /macOS did not let VS Code open it/);
    const found = await findCapability([container], { platform: 'darwin', read: refused });
    assert.ok(found.kind === 'unreadable' && found.privacy === true);
    // Elsewhere, or on Linux, EPERM is the file's permissions.
    for (const reading of [
      await readCapabilityFile(container, { platform: 'linux', read: refused }),
      await readCapabilityFile('/Users/u/api-endpoint.json', { platform: 'darwin', read: refused }),
    ]) {
      assert.deepEqual(reading.kind === 'unreadable' ? [reading.privacy, reading.message] : [], [
        undefined,
        'this user may not read it.',
      ]);
    }
  });

  it('tells absent, ready and stale apart', async () => {
    const path = join(dir, 'api-endpoint.json');
    assert.deepEqual(await readCapabilityFile(path, { isRunning: running }), { kind: 'absent', path });
    assert.deepEqual(
      await readCapabilityFile(join(dir, 'missing-folder', 'api-endpoint.json'), { isRunning: running }),
      { kind: 'absent', path: join(dir, 'missing-folder', 'api-endpoint.json') },
    );
    await writeFile(path, formatCapability(capability), { mode: 0o600 });
    assert.deepEqual(await readCapabilityFile(path, { isRunning: running }), {
      kind: 'ready',
      path,
      capability: { version: 1, ...capability },
    });
    assert.deepEqual(await readCapabilityFile(path, { isRunning: () => false }), {
      kind: 'stale',
      path,
      capability: { version: 1, ...capability },
    });
  });

  it('says why a file cannot be used: invalid, newer, a folder, a FIFO, far too large', async () => {
    const path = join(dir, 'api-endpoint.json');
    await writeFile(path, '{"version": 1, "socketPath": "/s", "token": "t"}');
    assert.deepEqual(await readCapabilityFile(path, { isRunning: running }), {
      kind: 'invalid',
      path,
      message: '"pid" must be a whole number, not missing.',
    });
    await writeFile(path, JSON.stringify({ ...capability, version: 3 }));
    const newer = await readCapabilityFile(path, { isRunning: running });
    assert.equal(newer.kind, 'newer');
    await rm(path);
    await mkdir(path);
    assert.deepEqual(await readCapabilityFile(path, { isRunning: running }), {
      kind: 'unreadable',
      path,
      message: 'it is not a regular file.',
    });
    await rm(path, { recursive: true });
    // A FIFO would block a plain read forever; it must come back at once.
    execFileSync('mkfifo', [path]);
    assert.deepEqual(await readCapabilityFile(path, { isRunning: running }), {
      kind: 'unreadable',
      path,
      message: 'it is not a regular file.',
    });
    await rm(path);
    await writeFile(path, `${JSON.stringify(capability)}${' '.repeat(70_000)}`);
    const large = await readCapabilityFile(path, { isRunning: running });
    assert.equal(large.kind, 'unreadable');
    assert.match(
      'message' in large ? large.message : '',
      /^it is 70\d{3} bytes, far larger than a capability file \(at most 65536\)\.$/,
    );
  });

  it('searches in order: a running app first, else the most telling file, else absent', async () => {
    const first = join(dir, 'first.json');
    const second = join(dir, 'second.json');
    assert.deepEqual(await findCapability([first, second], { isRunning: running }), { kind: 'absent', path: first });
    await writeFile(second, formatCapability({ ...capability, pid: 2 }), { mode: 0o600 });
    assert.equal((await findCapability([first, second], { isRunning: running })).path, second);
    // The old app's file is stale, the renamed app's is live: the live one wins.
    await writeFile(first, formatCapability({ ...capability, pid: 1 }), { mode: 0o600 });
    const isRunning = (pid: number): boolean => pid === 2;
    const found = await findCapability([first, second], { isRunning });
    assert.deepEqual([found.kind, found.path], ['ready', second]);
    const neither = await findCapability([first, second], { isRunning: () => false });
    assert.deepEqual([neither.kind, neither.path], ['stale', first]);
  });

  it('knows a running process from an ended one, and never takes 0 or below for an app', async () => {
    assert.equal(processIsRunning(process.pid), true);
    const child = spawn(process.execPath, ['-e', '0']);
    const pid = child.pid;
    await new Promise((resolve) => child.once('exit', resolve));
    assert.ok(pid !== undefined);
    assert.equal(processIsRunning(pid), false);
    for (const pid of [0, -1, 1.5, 2 ** 40, Number.NaN]) assert.equal(processIsRunning(pid), false, String(pid));
  });

  describe('whom it trusts with the token', function () {
    // Windows has no owner uid and mode bits to judge: the rule is skipped there. Giving a file to
    // another user takes root; elsewhere these cases cannot be set up.
    const other = 4321;
    before(function () {
      if (process.platform === 'win32' || process.getuid?.() !== 0) this.skip();
    });

    const me = (): number => process.getuid?.() ?? -1;
    const untrusted = (path: string, message: string) => ({ kind: 'untrusted', path, message });

    it('refuses a file another user owns or group or others may write, and one reached through a link to such a file', async () => {
      const path = join(dir, 'api-endpoint.json');
      await writeFile(path, formatCapability(capability), { mode: 0o600 });
      await chmod(path, 0o666);
      assert.deepEqual(
        await readCapabilityFile(path, { isRunning: running }),
        untrusted(path, 'group or others may write it (mode 0666), so another user could have written it.'),
      );
      await chmod(path, 0o620);
      assert.deepEqual(
        await readCapabilityFile(path, { isRunning: running }),
        untrusted(path, 'group or others may write it (mode 0620), so another user could have written it.'),
      );
      await chmod(path, 0o644);
      assert.equal(
        (await readCapabilityFile(path, { isRunning: running })).kind,
        'ready',
        "readable by others is the app's business; writable is not",
      );
      await chmod(path, 0o600);
      await chown(path, other, other);
      assert.deepEqual(
        await readCapabilityFile(path, { isRunning: running }),
        untrusted(
          path,
          `it belongs to user ${other}, not to you (user ${me()}), so another user could have written it.`,
        ),
      );
      const link = join(dir, 'link.json');
      await symlink(path, link);
      await lchown(link, me(), me());
      assert.deepEqual(
        await readCapabilityFile(link, { isRunning: running }),
        untrusted(
          link,
          `it belongs to user ${other}, not to you (user ${me()}), so another user could have written it.`,
        ),
      );
      await chown(path, me(), me());
      await chmod(path, 0o666);
      assert.equal(
        (await readCapabilityFile(link, { isRunning: running })).kind,
        'untrusted',
        'the link leads to a file anyone may write',
      );
    });

    it('refuses a file of its own that names a socket another user serves, and never connects to it', async () => {
      const socketPath = join(dir, 'api.sock');
      const server = await listen(socketPath);
      try {
        await chown(socketPath, other, other);
        const path = join(dir, 'api-endpoint.json');
        await writeFile(path, formatCapability({ ...capability, socketPath }), { mode: 0o600 });
        const expected = untrusted(
          path,
          `the socket it names, ${socketPath}, belongs to user ${other}, not to you (user ${me()}): the token would go to another user.`,
        );
        assert.deepEqual(await readCapabilityFile(path, { isRunning: running }), expected);
        // Through a link of this user's to that socket: a connection would still reach the other user.
        const link = join(dir, 'link.sock');
        await symlink(socketPath, link);
        await lchown(link, me(), me());
        await writeFile(path, formatCapability({ ...capability, socketPath: link }), { mode: 0o600 });
        assert.equal((await readCapabilityFile(path, { isRunning: running })).kind, 'untrusted');
        const found = await findCapability([path], { isRunning: running });
        assert.equal(found.kind, 'untrusted');
        assert.doesNotMatch(JSON.stringify(found), /capability-token/, 'the token is never in what is said');
        assert.equal(server.connections, 0, "nothing connected to the other user's socket");
        await chown(socketPath, me(), me());
        assert.equal(
          (await readCapabilityFile(path, { isRunning: running })).kind,
          'ready',
          'the same socket of this user is used',
        );
      } finally {
        await server.close();
      }
    });
  });

  describe('which of several files of running apps it takes', () => {
    it('takes the one whose socket accepts (a stale NowDoing file beside the live Clessira one), then the newest', async () => {
      const nowDoing = join(dir, 'nowdoing.json');
      const clessira = join(dir, 'clessira.json');
      const clessiraSocket = join(dir, 'clessira.sock');
      // The NowDoing file is left from before a reboot; its pid was reused by some other process.
      await writeFile(nowDoing, formatCapability({ ...capability, socketPath: join(dir, 'nowdoing.sock'), pid: 111 }), {
        mode: 0o600,
      });
      await writeFile(clessira, formatCapability({ ...capability, socketPath: clessiraSocket, pid: 222 }), {
        mode: 0o600,
      });
      const old = (Date.now() - 3_600_000) / 1000;
      await utimes(clessira, old, old);
      const server = await listen(clessiraSocket);
      try {
        const found = await findCapability([nowDoing, clessira], { isRunning: running });
        assert.deepEqual(
          [found.kind, found.path],
          ['ready', clessira],
          'the file whose socket accepts, though it is older',
        );
        await server.firstClosed;
        assert.equal(server.connections, 1, 'asked once, to choose');
        assert.equal(server.bytes, 0, 'and sent no byte: nothing the app could count');
      } finally {
        await server.close();
      }
      // Neither socket accepts: the newest file.
      const accepts = (): Promise<boolean> => Promise.resolve(false);
      assert.equal(
        (await findCapability([nowDoing, clessira], { isRunning: running, socketAccepts: accepts })).path,
        nowDoing,
      );
      await utimes(nowDoing, old - 60, old - 60);
      assert.equal(
        (await findCapability([nowDoing, clessira], { isRunning: running, socketAccepts: accepts })).path,
        clessira,
      );
      // Both accept: the newest again.
      const both = (): Promise<boolean> => Promise.resolve(true);
      assert.equal(
        (await findCapability([nowDoing, clessira], { isRunning: running, socketAccepts: both })).path,
        clessira,
      );
    });

    it('asks no socket when there is only one file of a running app to take', async () => {
      const path = join(dir, 'api-endpoint.json');
      await writeFile(path, formatCapability(capability), { mode: 0o600 });
      const asked: string[] = [];
      const socketAccepts = (socketPath: string): Promise<boolean> => {
        asked.push(socketPath);
        return Promise.resolve(true);
      };
      assert.equal(
        (await findCapability([join(dir, 'missing.json'), path], { isRunning: running, socketAccepts })).kind,
        'ready',
      );
      assert.deepEqual(asked, []);
    });
  });
});

/** A Unix socket that counts the connections it accepted and the bytes it was sent. */
async function listen(path: string): Promise<{
  readonly connections: number;
  readonly bytes: number;
  firstClosed: Promise<void>;
  close(): Promise<void>;
}> {
  const counts = { connections: 0, bytes: 0 };
  let closed: () => void = () => undefined;
  const firstClosed = new Promise<void>((resolve) => (closed = resolve));
  const server: Server = createServer((socket) => {
    counts.connections++;
    socket.on('data', (chunk: Buffer) => (counts.bytes += chunk.length));
    socket.on('error', () => undefined);
    socket.on('close', () => closed());
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(path, resolve));
  return {
    get connections() {
      return counts.connections;
    },
    get bytes() {
      return counts.bytes;
    },
    firstClosed,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
