/**
 * The one way a store of ours gives up on a file it cannot read (the offline queue, the branch
 * ledger): never overwritten, it is renamed beside itself to `<name>.corrupt-<time>` (a number
 * added when that name is taken), and the rename is made to last a crash. The caller holds its
 * lock and says where the file went.
 */
import { rename, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { syncFolder } from './atomicWrite';

/** Renames `file` to a free `<file>.corrupt-<time>` name; resolves to that name. */
export async function keepAside(file: string, nowMs: number): Promise<string> {
  const stamp = new Date(nowMs).toISOString().replace(/[:.]/g, '-');
  let keptAs = `${file}.corrupt-${stamp}`;
  for (let n = 2; await exists(keptAs); n++) keptAs = `${file}.corrupt-${stamp}-${n}`;
  await rename(file, keptAs);
  await syncFolder(dirname(file));
  return keptAs;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
