/**
 * Reading the capability file of the application's VS Code integration (PROTOCOL.md §8) from
 * disk: whether it is there, readable, valid, trusted with the token, and written by an app that
 * still runs. The format itself is src/protocol/capability.ts. A file whose pid is not running is
 * a quit app, not a broken one: the app leaves it behind when it crashes. The token goes wherever
 * the file says, so a file another user could have written, or one naming another user's socket,
 * is refused: that user would be sent the token.
 */
import type { Stats } from 'node:fs';
import { lstat, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { FileReadError, readBoundedFile, type BoundedFile } from '../platform/boundedRead';
import { errnoCode, errorMessage } from '../platform/errors';
import { ownProcessIsRunning } from '../platform/processes';
import {
  CAPABILITY_FILE_LOCATIONS,
  CAPABILITY_FILE_MAX_BYTES,
  parseCapability,
  type Capability,
} from '../protocol/capability';
import { deniedByMacPrivacy, macPrivacyDenial } from './macPrivacy';
import { reachability } from './reachability';

export type CapabilityReading =
  /** No file: the integration is off, or the app was never installed here. */
  | { readonly kind: 'absent'; readonly path: string }
  /**
   * There, but it cannot be read (permissions, not a regular file, far too large). `privacy`: the
   * Mac's consent to read another app's data was declined (./macPrivacy.ts).
   */
  | { readonly kind: 'unreadable'; readonly path: string; readonly message: string; readonly privacy?: true }
  | { readonly kind: 'invalid'; readonly path: string; readonly message: string }
  /** A version this extension does not know: the app is newer. */
  | { readonly kind: 'newer'; readonly path: string; readonly message: string }
  /** Another user could have written it, or the socket it names is another user's: not trusted with the token. */
  | { readonly kind: 'untrusted'; readonly path: string; readonly message: string }
  /** Valid, but its pid is not running: the app quit without removing it. */
  | { readonly kind: 'stale'; readonly path: string; readonly capability: Capability }
  | { readonly kind: 'ready'; readonly path: string; readonly capability: Capability };

/** What reading `path` says when macOS's privacy consent refused it (./macPrivacy.ts). */
export function macPrivacyRefusal(path: string): CapabilityReading {
  return { kind: 'unreadable', path, message: macPrivacyDenial('it'), privacy: true };
}

/** Whether macOS's privacy consent refused the file: reading again changes nothing until the user allows it. */
export function isMacPrivacyRefusal(reading: CapabilityReading): boolean {
  return reading.kind === 'unreadable' && reading.privacy === true;
}

export interface CapabilityChecks {
  /** Whose rules apply to an error (the Mac's privacy consent); default this system's. */
  readonly platform?: NodeJS.Platform;
  /** Reads the file bounded; default readBoundedFile. Tests put a Mac's refusal in its place. */
  readonly read?: (path: string, maxBytes: number) => Promise<BoundedFile>;
  /** Default: whether the pid is a process of this user's (the app runs as this user). */
  readonly isRunning?: (pid: number) => boolean;
  /**
   * Asked only to choose among several files of running apps. Default: connect and close at once,
   * no byte written (reachability.ts), so the app has nothing it could count as a failed sign-in.
   */
  readonly socketAccepts?: (socketPath: string) => Promise<boolean>;
}

/** The default places, under a home directory (`os.homedir()`), in the order they are searched. */
export function defaultCapabilityPaths(home: string): string[] {
  return CAPABILITY_FILE_LOCATIONS.map((location) => join(home, location));
}

/**
 * Searches the paths (never rejects): of the files of running apps, the one whose socket accepts wins (a stale
 * file whose pid was reused after a reboot beside the live one), then the newest, then the first;
 * without one, the first file there is (stale, invalid…: it says the most); otherwise the first
 * path, absent.
 */
export async function findCapability(
  paths: readonly string[],
  checks: CapabilityChecks = {},
): Promise<CapabilityReading> {
  const files = await Promise.all(paths.map((path) => readOne(path, checks)));
  const chosen = await preferred(
    files.filter((file) => file.reading.kind === 'ready'),
    checks,
  );
  if (chosen !== undefined) return chosen.reading;
  const readings = files.map((file) => file.reading);
  return readings.find((reading) => reading.kind !== 'absent') ?? readings[0] ?? { kind: 'absent', path: '' };
}

/** A reading, and when its file was last written (0 when there is none). */
interface FileReading {
  readonly reading: CapabilityReading;
  readonly modifiedMs: number;
}

const boundedRead = (path: string, maxBytes: number): Promise<BoundedFile> => readBoundedFile(path, { maxBytes });

async function readOne(path: string, checks: CapabilityChecks): Promise<FileReading> {
  const isRunning = checks.isRunning ?? ownProcessIsRunning;
  let file: BoundedFile;
  try {
    // Non-blocking, so a FIFO at that path cannot hang the extension; a regular file of at most the cap.
    file = await (checks.read ?? boundedRead)(path, CAPABILITY_FILE_MAX_BYTES);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return { reading: { kind: 'absent', path }, modifiedMs: 0 };
    if (deniedByMacPrivacy(path, code, checks.platform)) return { reading: macPrivacyRefusal(path), modifiedMs: 0 };
    return { reading: { kind: 'unreadable', path, message: describeReadError(error) }, modifiedMs: 0 };
  }
  const modifiedMs = file.stats.mtimeMs;
  // The stats are of the very file read, after any link: a link of this user's to another user's file is that file.
  const distrust = fileDistrust(file.stats);
  if (distrust !== undefined) return { reading: { kind: 'untrusted', path, message: distrust }, modifiedMs };
  const parsed = parseCapability(file.text);
  if (!parsed.ok) return { reading: { kind: parsed.defect, path, message: parsed.message }, modifiedMs };
  const socketDistrust = await socketOwnerDistrust(parsed.capability.socketPath);
  if (socketDistrust !== undefined)
    return { reading: { kind: 'untrusted', path, message: socketDistrust }, modifiedMs };
  const { capability } = parsed;
  return {
    reading: isRunning(capability.pid) ? { kind: 'ready', path, capability } : { kind: 'stale', path, capability },
    modifiedMs,
  };
}

/**
 * Of the files of running apps: the newest of those whose socket accepts, else the newest of all; the first on a tie.
 */
async function preferred(live: readonly FileReading[], checks: CapabilityChecks): Promise<FileReading | undefined> {
  const accepts = checks.socketAccepts ?? socketAccepts;
  // One file needs no choosing, and its socket no connection.
  const answers =
    live.length > 1
      ? await Promise.all(
          live.map(({ reading }) =>
            reading.kind === 'ready' ? accepts(reading.capability.socketPath) : Promise.resolve(false),
          ),
        )
      : [];
  const answering = live.filter((_, index) => answers[index] === true);
  const candidates = answering.length > 0 ? answering : live;
  return candidates.reduce<FileReading | undefined>(
    (newest, file) => (newest === undefined || file.modifiedMs > newest.modifiedMs ? file : newest),
    undefined,
  );
}

async function socketAccepts(socketPath: string): Promise<boolean> {
  return (await reachability({ socketPath })).kind === 'listening';
}

/**
 * Why another user could have written the file (its owner, its mode), as the rest of a sentence; undefined when only
 * this user can. Windows has no owner uid and mode bits to judge (an ACL decides there, and `getuid` is missing): the
 * owner and mode rules, here and for the socket, are skipped on it.
 */
function fileDistrust(stats: Stats): string | undefined {
  const user = process.getuid?.();
  if (user === undefined) return undefined;
  if (stats.uid !== user)
    return `it belongs to user ${stats.uid}, not to you (user ${user}), so another user could have written it.`;
  if ((stats.mode & 0o022) !== 0)
    return (
      `group or others may write it (mode ${(stats.mode & 0o777).toString(8).padStart(4, '0')}), ` +
      'so another user could have written it.'
    );
  return undefined;
}

/**
 * Why the socket the file names is another user's: the socket file itself (lstat), and where a
 * link there leads (stat), since a connection follows it. A socket that is not there is no one's:
 * the app quit, or has not made it yet; connecting says so.
 */
async function socketOwnerDistrust(socketPath: string): Promise<string | undefined> {
  const user = process.getuid?.();
  if (user === undefined) return undefined;
  const owners = await Promise.all(
    [lstat(socketPath), stat(socketPath)].map((found) =>
      found.then(
        (info) => info.uid,
        () => undefined,
      ),
    ),
  );
  const owner = owners.find((uid) => uid !== undefined && uid !== user);
  if (owner === undefined) return undefined;
  return `the socket it names, ${socketPath}, belongs to user ${owner}, not to you (user ${user}): the token would go to another user.`;
}

/** Why the file cannot be read, as the rest of a sentence that names it. */
function describeReadError(error: unknown): string {
  if (error instanceof FileReadError) {
    return error.code === 'NOT_A_REGULAR_FILE'
      ? 'it is not a regular file.'
      : `it is ${error.size} bytes, far larger than a capability file (at most ${CAPABILITY_FILE_MAX_BYTES}).`;
  }
  const code = errnoCode(error);
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return 'this user may not read it.';
    case 'EISDIR':
      return 'it is a folder, not a file.';
    default:
      return `reading it failed (${code ?? errorMessage(error)}).`;
  }
}
