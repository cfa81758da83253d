import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultCapabilityPaths, findCapability, readCapabilityFile } from '../../../src/client/capabilityReader';
import { processIsRunning } from '../../../src/platform/processes';
import { formatCapability } from '../../../src/protocol/capability';

const running = (): boolean => true;
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

  it('tells absent, ready and stale apart', async () => {
    const path = join(dir, 'api-endpoint.json');
    assert.deepEqual(await readCapabilityFile(path, running), { kind: 'absent', path });
    assert.deepEqual(await readCapabilityFile(join(dir, 'missing-folder', 'api-endpoint.json'), running), { kind: 'absent', path: join(dir, 'missing-folder', 'api-endpoint.json') });
    await writeFile(path, formatCapability(capability));
    assert.deepEqual(await readCapabilityFile(path, running), { kind: 'ready', path, capability: { version: 1, ...capability } });
    assert.deepEqual(await readCapabilityFile(path, () => false), { kind: 'stale', path, capability: { version: 1, ...capability } });
  });

  it('says why a file cannot be used: invalid, newer, a folder, a FIFO, far too large', async () => {
    const path = join(dir, 'api-endpoint.json');
    await writeFile(path, '{"version": 1, "socketPath": "/s", "token": "t"}');
    assert.deepEqual(await readCapabilityFile(path, running), { kind: 'invalid', path, message: '"pid" must be a whole number, not missing.' });
    await writeFile(path, JSON.stringify({ ...capability, version: 3 }));
    const newer = await readCapabilityFile(path, running);
    assert.equal(newer.kind, 'newer');
    await rm(path);
    await mkdir(path);
    assert.deepEqual(await readCapabilityFile(path, running), { kind: 'unreadable', path, message: 'it is not a regular file.' });
    await rm(path, { recursive: true });
    // A FIFO would block a plain read forever; it must come back at once.
    execFileSync('mkfifo', [path]);
    assert.deepEqual(await readCapabilityFile(path, running), { kind: 'unreadable', path, message: 'it is not a regular file.' });
    await rm(path);
    await writeFile(path, `${JSON.stringify(capability)}${' '.repeat(70_000)}`);
    const large = await readCapabilityFile(path, running);
    assert.equal(large.kind, 'unreadable');
    assert.match('message' in large ? large.message : '', /^it is 70\d{3} bytes, far larger than a capability file \(at most 65536\)\.$/);
  });

  it('searches in order: a running app first, else the most telling file, else absent', async () => {
    const first = join(dir, 'first.json');
    const second = join(dir, 'second.json');
    assert.deepEqual(await findCapability([first, second], running), { kind: 'absent', path: first });
    await writeFile(second, formatCapability({ ...capability, pid: 2 }));
    assert.equal((await findCapability([first, second], running)).path, second);
    // The old app's file is stale, the renamed app's is live: the live one wins.
    await writeFile(first, formatCapability({ ...capability, pid: 1 }));
    const isRunning = (pid: number): boolean => pid === 2;
    const found = await findCapability([first, second], isRunning);
    assert.deepEqual([found.kind, found.path], ['ready', second]);
    const neither = await findCapability([first, second], () => false);
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
});
