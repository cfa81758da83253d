/**
 * A lock shared by every editor window on this machine: a file created with O_EXCL. A lock left
 * by a crashed window is taken over once it is older than `staleMs`.
 */
import { open, rm, stat } from 'node:fs/promises';
import * as l10n from '@vscode/l10n';

export interface FileLockOptions {
  readonly staleMs?: number;
  readonly timeoutMs?: number;
  readonly retryMs?: number;
}

export async function withFileLock<T>(path: string, work: () => Promise<T>, options: FileLockOptions = {}): Promise<T> {
  const staleMs = options.staleMs ?? 30_000;
  const deadline = Date.now() + (options.timeoutMs ?? 5_000);
  for (;;) {
    try {
      const handle = await open(path, 'wx');
      await handle.writeFile(`${process.pid} ${new Date().toISOString()}\n`);
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const info = await stat(path).catch(() => undefined);
      if (info && Date.now() - info.mtimeMs > staleMs) {
        await rm(path, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(l10n.t('Another window holds {0}; try again in a moment.', path));
      await new Promise((resolve) => setTimeout(resolve, options.retryMs ?? 25));
    }
  }
  try {
    return await work();
  } finally {
    await rm(path, { force: true });
  }
}
