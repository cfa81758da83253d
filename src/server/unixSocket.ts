/**
 * The Unix domain socket of the application's VS Code integration (PROTOCOL.md §8): the checks
 * before listening, each with one sentence, and the removal of a socket file a killed server left
 * behind. The socket path is where the OS refuses most often and says least (a bare EINVAL or
 * EADDRINUSE), so every refusal that can be foreseen is foreseen here.
 */
import { lstat, stat, unlink } from 'node:fs/promises';
import { connect } from 'node:net';
import { dirname, resolve } from 'node:path';
import { errnoCode, errorPhrase } from '../platform/errors';
import { SocketPathError } from './errors';

/** The longest socket path the OS takes, in bytes: sun_path less its terminating NUL. */
export function maxSocketPathBytes(platform: NodeJS.Platform = process.platform): number {
  // Linux has 108 bytes of sun_path; macOS and the BSDs 104.
  return platform === 'linux' ? 107 : 103;
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
    throw new SocketPathError('path-too-long', `The socket path ${absolute} is ${bytes} bytes long, and the longest this OS takes is ${limit}.`);
  }
  const directory = dirname(absolute);
  try {
    if (!(await stat(directory)).isDirectory()) {
      throw new SocketPathError('directory-missing', `The directory ${directory} of the socket path is not a directory.`);
    }
  } catch (error) {
    if (error instanceof SocketPathError) throw error;
    if (errnoCode(error) === 'ENOENT' || errnoCode(error) === 'ENOTDIR') {
      throw new SocketPathError('directory-missing', `The directory ${directory} of the socket path does not exist.`);
    }
    throw new SocketPathError('not-allowed', `Cannot look at the directory ${directory} of the socket path: ${errorPhrase(error)}.`);
  }
  let isSocket: boolean;
  try {
    isSocket = (await lstat(absolute)).isSocket();
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return absolute;
    throw new SocketPathError('not-allowed', `Cannot look at the socket path ${absolute}: ${errorPhrase(error)}.`);
  }
  if (!isSocket) {
    throw new SocketPathError('not-a-socket', `${absolute} exists and is not a socket; remove it or pick another path.`);
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

/** The sentence for a socket another server listens on (also when the OS says EADDRINUSE). */
function inUse(path: string): SocketPathError {
  return new SocketPathError('in-use', `Another server already listens on the socket ${path}.`);
}

/** The sentence for a listen the OS refused for a reason the checks above did not foresee. */
export function listenRefused(path: string, error: unknown): SocketPathError {
  if (errnoCode(error) === 'EADDRINUSE') return inUse(path);
  return new SocketPathError('not-allowed', `Cannot listen on the socket ${path}: ${errorPhrase(error)}.`);
}

/** Connects once: "live" if a server accepts, "stale" if the connection is refused, "gone" if the file vanished. */
function probeSocket(path: string): Promise<'live' | 'stale' | 'gone'> {
  return new Promise((resolvePromise, reject) => {
    const socket = connect(path);
    const timer = setTimeout(() => settle(() => resolvePromise('live')), PROBE_TIMEOUT_MS);
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
      else settle(() => reject(new SocketPathError('not-allowed', `Cannot connect to the socket ${path} to see whether a server listens there: ${errorPhrase(error)}.`)));
    });
  });
}
