/**
 * The Unix domain socket of the application's VS Code integration (PROTOCOL.md §8): the checks
 * before listening, each with one sentence, the removal of a socket file a killed server left
 * behind, and the bind that puts the socket at its path already 0600, whatever the umask. The
 * socket path is where the OS refuses most often and says least (a bare EINVAL or EADDRINUSE),
 * so every refusal that can be foreseen is foreseen here.
 */
import { chmod, link, lstat, mkdtemp, rm, stat, unlink } from 'node:fs/promises';
import { connect } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { errnoCode, errorPhrase } from '../platform/errors';
import { SocketPathError } from './errors';
import { maxSocketPathBytes } from '../platform/socketPath';
import { later } from '../platform/timers';

/** The socket file as created, so that `close()` removes that one and never a successor's. */
export interface BoundSocket {
  readonly path: string;
  readonly dev: number;
  readonly ino: number;
}

/** What `bindSocketPrivately` needs of the listener: to listen at a path, and to stop again. */
export interface SocketListener {
  listen(path: string): Promise<void>;
  close(): Promise<void>;
}

/** The private folder beside the socket path, as `mkdtemp` names it: the prefix and six characters. */
const PRIVATE_FOLDER_PREFIX = '.';
const PRIVATE_FOLDER_RANDOM = 'XXXXXX';
/** The socket's name inside the private folder: short, so that the path fits where the target does. */
const PRIVATE_SOCKET_NAME = 's';

/** Where the socket is first bound, with `folder` the private folder, or its pattern. */
function privateSocketPath(
  target: string,
  folder = join(dirname(target), PRIVATE_FOLDER_PREFIX + PRIVATE_FOLDER_RANDOM),
): string {
  return join(folder, PRIVATE_SOCKET_NAME);
}

/** A live server answers a connect within this long; one that does not is not taken over either. */
const PROBE_TIMEOUT_MS = 1_000;

/**
 * Makes `path` ready to listen on and returns it made absolute (the capability file names it,
 * and its reader runs in another directory): refuses a path that is too long, a missing
 * directory, a file that is not a socket and a socket some server still listens on; removes a
 * socket nobody listens on any more.
 */
export async function prepareSocketPath(path: string): Promise<string> {
  const absolute = resolve(path);
  const bytes = Buffer.byteLength(absolute);
  const limit = maxSocketPathBytes();
  if (bytes > limit) {
    throw new SocketPathError(
      'path-too-long',
      `The socket path ${absolute} is ${bytes} bytes long, and the longest this OS takes is ${limit}.`,
    );
  }
  const privateBytes = Buffer.byteLength(privateSocketPath(absolute));
  if (privateBytes > limit) {
    throw new SocketPathError(
      'path-too-long',
      `The socket path ${absolute} is in a folder too long for it: the socket is first bound in a private folder beside it, ` +
        `at ${privateSocketPath(absolute)} (${privateBytes} bytes), and the longest this OS takes is ${limit}; pick a shorter folder.`,
    );
  }
  const directory = dirname(absolute);
  try {
    if (!(await stat(directory)).isDirectory()) {
      throw new SocketPathError(
        'directory-missing',
        `The directory ${directory} of the socket path is not a directory.`,
      );
    }
  } catch (error) {
    if (error instanceof SocketPathError) throw error;
    if (errnoCode(error) === 'ENOENT' || errnoCode(error) === 'ENOTDIR') {
      throw new SocketPathError('directory-missing', `The directory ${directory} of the socket path does not exist.`);
    }
    throw new SocketPathError(
      'not-allowed',
      `Cannot look at the directory ${directory} of the socket path: ${errorPhrase(error)}.`,
    );
  }
  let isSocket: boolean;
  try {
    isSocket = (await lstat(absolute)).isSocket();
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return absolute;
    throw new SocketPathError('not-allowed', `Cannot look at the socket path ${absolute}: ${errorPhrase(error)}.`);
  }
  if (!isSocket) {
    throw new SocketPathError(
      'not-a-socket',
      `${absolute} exists and is not a socket; remove it or pick another path.`,
    );
  }
  const probe = await probeSocket(absolute);
  if (probe === 'live') throw inUse(absolute);
  if (probe === 'stale') {
    // A killed server cannot remove its socket; nothing listens there, so the file is only litter.
    await unlink(absolute).catch((error: unknown) => {
      if (errnoCode(error) !== 'ENOENT') {
        throw new SocketPathError('not-allowed', `Cannot remove the stale socket ${absolute}: ${errorPhrase(error)}.`);
      }
    });
  }
  return absolute;
}

/**
 * Listens at `path` (made ready by `prepareSocketPath`) so that the socket is mode 0600 from the
 * first moment anybody else can reach it. Node binds with the umask's mode, and a chmod after the
 * bind leaves a moment in which a lax umask (000) lets any user connect and lock the owner out;
 * `process.umask` is process-wide, so setting it would race every other file this process makes.
 * Instead the socket is bound inside a new 0700 folder beside `path`, where nobody else can reach
 * it, made 0600 there, and hard-linked to `path`: a link keeps the inode and its mode and, unlike
 * a rename, fails when `path` exists, so a server that took the path meanwhile is refused as a
 * bind would refuse it. The private folder is gone again when this returns, whatever happened.
 */
export async function bindSocketPrivately(path: string, listener: SocketListener): Promise<BoundSocket> {
  const folder = await mkdtemp(join(dirname(path), PRIVATE_FOLDER_PREFIX)).catch((error: unknown) => {
    throw listenRefused(path, error);
  });
  try {
    const inside = privateSocketPath(path, folder);
    try {
      // mkdtemp asks for 0700, but the umask may take bits away; the owner's are needed to bind inside.
      await chmod(folder, 0o700);
      await listener.listen(inside);
    } catch (error) {
      throw listenRefused(path, error);
    }
    try {
      await chmod(inside, 0o600);
    } catch (error) {
      await listener.close();
      throw new SocketPathError(
        'not-allowed',
        `Cannot restrict the socket ${path} to its owner: ${errorPhrase(error)}.`,
      );
    }
    try {
      const { dev, ino } = await lstat(inside);
      await link(inside, path);
      return { path, dev, ino };
    } catch (error) {
      await listener.close();
      throw listenRefused(path, error);
    }
  } finally {
    // The socket stays reachable by its link at `path`; its first name and the folder go. A folder
    // that cannot be removed is litter nobody else can enter, not worth failing the start for.
    await rm(folder, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** The sentence for a socket another server listens on (also when the OS says EADDRINUSE). */
function inUse(path: string): SocketPathError {
  return new SocketPathError('in-use', `Another server already listens on the socket ${path}.`);
}

/** The sentence for a listen the OS refused for a reason the checks above did not foresee. */
function listenRefused(path: string, error: unknown): SocketPathError {
  // EEXIST: the link into place found the path taken since it was checked.
  if (errnoCode(error) === 'EADDRINUSE' || errnoCode(error) === 'EEXIST') return inUse(path);
  return new SocketPathError('not-allowed', `Cannot listen on the socket ${path}: ${errorPhrase(error)}.`);
}

/** Connects once: "live" if a server accepts, "stale" if the connection is refused, "gone" if the file vanished. */
function probeSocket(path: string): Promise<'live' | 'stale' | 'gone'> {
  return new Promise((resolvePromise, reject) => {
    const socket = connect(path);
    const timer = later(() => settle(() => resolvePromise('live')), PROBE_TIMEOUT_MS);
    const settle = (then: () => void): void => {
      clearTimeout(timer);
      socket.destroy();
      then();
    };
    socket.once('connect', () => settle(() => resolvePromise('live')));
    socket.once('error', (error) => {
      const code = errnoCode(error);
      if (code === 'ECONNREFUSED') settle(() => resolvePromise('stale'));
      else if (code === 'ENOENT') settle(() => resolvePromise('gone'));
      else
        settle(() =>
          reject(
            new SocketPathError(
              'not-allowed',
              `Cannot connect to the socket ${path} to see whether a server listens there: ${errorPhrase(error)}.`,
            ),
          ),
        );
    });
  });
}
