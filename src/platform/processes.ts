/**
 * Whether a process runs on this machine, for files that name their writer's pid: the app's
 * capability file (a pid not running is a quit app), the file locks (a dead holder's lock is
 * stale), the offline queue's senders and the ledger's focus claims. One probe for all of them,
 * read two ways.
 */
import { errnoCode } from './errors';

/** `process.kill(pid, 0)`, or a stand-in that throws as the system would (tests). */
export type SignalProbe = (pid: number) => void;

const signalZero: SignalProbe = (pid) => {
  process.kill(pid, 0);
};

/**
 * Signal 0 tests for a process without touching it; EPERM means it runs as another user. Pids
 * of 0 and below are never a process of ours: kill() would address a process group instead.
 */
export function processState(pid: number, probe: SignalProbe = signalZero): 'ours' | 'anotherUser' | 'none' {
  if (!Number.isSafeInteger(pid) || pid <= 0 || pid > 0x7fffffff) return 'none';
  try {
    probe(pid);
    return 'ours';
  } catch (error) {
    return errnoCode(error) === 'EPERM' ? 'anotherUser' : 'none';
  }
}

/**
 * Whether the process runs, as whoever: for the locks, whose folder another user (a server run
 * under its own account) may share.
 */
export function processIsRunning(pid: number, probe?: SignalProbe): boolean {
  return processState(pid, probe) !== 'none';
}

/**
 * Whether the process runs as this user: for files only this user's processes write (the app's
 * capability file, the queue's senders, the ledger's claims). A pid of another user's is one the
 * system handed out again after the writer ended (macOS reuses low pids after a restart).
 */
export function ownProcessIsRunning(pid: number, probe?: SignalProbe): boolean {
  return processState(pid, probe) === 'ours';
}
