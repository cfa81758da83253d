/**
 * Which machine a record names: the file locks (./lockRecords.ts) tell a holder on this machine,
 * whose pid can be checked, from one on another machine sharing the folder, which they can only
 * wait out.
 *
 * A Mac's host name is no such name: configd renames it to what the network (DHCP, reverse DNS)
 * says, so a lock a crashed window left before the Mac changed networks would look like another
 * machine's. The machine is named instead by a random id, made once and kept in a file:
 * Linux's /etc/machine-id where there is one (made at installation, one per machine even with a
 * home folder shared over the network), else a file under the user's local state folder. The
 * Mac's own id (IOPlatformUUID) would cost starting ioreg in every process that takes a lock.
 * Records keep the host name beside the id, for the messages that name another machine's holder.
 */
import { createHash, randomBytes } from 'node:crypto';
import { link, mkdir, unlink, writeFile } from 'node:fs/promises';
import { homedir, hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { readBoundedText } from './boundedRead';
import { errnoCode } from './errors';

export interface ThisMachine {
  /** Stable across networks and restarts. */
  readonly id: string;
  /** The host name now: it changes on a Mac, so it is asked each time. */
  readonly hostname: string;
}

const ID = /^[0-9a-f]{32}$/;

function stateFolder(): string {
  const home = homedir();
  if (process.platform === 'darwin') return join(home, 'Library', 'Application Support', 'clessira-time-tracker');
  if (process.platform === 'win32')
    return join(process.env.LOCALAPPDATA ?? join(home, 'AppData', 'Local'), 'clessira-time-tracker');
  return join(process.env.XDG_STATE_HOME ?? join(home, '.local', 'state'), 'clessira-time-tracker');
}

/**
 * The id a file holds, read as any file someone else may have put there: a FIFO or a huge file in
 * its place must not stall every lock of the process.
 */
async function readIdFile(path: string): Promise<string | undefined> {
  const text = await readBoundedText(path, { maxBytes: 256 }).catch(() => undefined);
  const id = text?.trim().toLowerCase().replace(/-/g, '');
  return id !== undefined && ID.test(id) ? id : undefined;
}

/**
 * The id in `path`, made there if there is none. It is written to a draft and linked into place,
 * which fails when another process made it first: nobody reads it half written, and every process
 * ends up with the one id. Where nothing can be written, the host name stands in.
 */
export async function machineIdIn(path: string): Promise<string> {
  const found = await readIdFile(path);
  if (found !== undefined) return found;
  const id = randomBytes(16).toString('hex');
  const draft = `${path}.${id}.tmp`;
  try {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    await writeFile(draft, `${id}\n`, { flag: 'wx', mode: 0o600 });
    await link(draft, path);
    return id;
  } catch (error) {
    if (errnoCode(error) === 'EEXIST') return (await readIdFile(path)) ?? `host:${hostname()}`;
    return `host:${hostname()}`;
  } finally {
    await unlink(draft).catch(() => undefined);
  }
}

/**
 * systemd asks that /etc/machine-id not be shown as it is (a lock file may be read by whoever shares
 * the folder), so the id derives from it, one way, as sd_id128_get_machine_app_specific does.
 */
export function appSpecificId(systemId: string): string {
  return createHash('sha256').update(`clessira-time-tracker lock owner ${systemId}`).digest('hex').slice(0, 32);
}

let id: Promise<string> | undefined;

async function readId(): Promise<string> {
  const system = process.platform === 'linux' ? await readIdFile('/etc/machine-id') : undefined;
  return system !== undefined ? appSpecificId(system) : machineIdIn(join(stateFolder(), 'machine-id'));
}

/** This machine: the id is read once per process, the host name each time. */
export async function thisMachine(): Promise<ThisMachine> {
  id ??= readId();
  return { id: await id, hostname: hostname() };
}
