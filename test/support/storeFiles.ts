/**
 * The platform's store files with every atomic write's options recorded: whether a store asks its
 * writes to be synced to the drive (the queue, which holds logged time) or not (the ledger).
 */
import { platformStoreFiles, type StoreFiles } from '../../src/platform/storeFiles';

export type WriteOptions = Parameters<StoreFiles['writeAtomic']>[2];

export function recordingWrites(): { readonly files: StoreFiles; readonly asked: WriteOptions[] } {
  const asked: WriteOptions[] = [];
  const files: StoreFiles = {
    ...platformStoreFiles,
    writeAtomic: (path, text, options) => {
      asked.push(options);
      return platformStoreFiles.writeAtomic(path, text, options);
    },
  };
  return { files, asked };
}
