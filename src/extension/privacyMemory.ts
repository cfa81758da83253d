/**
 * macOS's privacy refusal of the capability file, kept in globalState for every window of this
 * machine: a new window or a VS Code start whose paths include the refused one starts from it
 * without reading the file, so macOS does not ask again at each start; each reading afterwards
 * (Check Connection, a setting) updates it. The decision is src/tracker/model/privacyRefusal.ts.
 */
import type { CapabilityReading } from '../client/capabilityReader';
import { errorMessage } from '../platform/errors';
import { STORAGE_KEYS } from '../tracker/ids';
import { refusalUpdate, rememberedRefusal } from '../tracker/model/privacyRefusal';
import type { StateStore } from './prefixMemory';
import type { Log } from './oneLineLog';

export interface PrivacyMemory {
  /** The remembered refusal to start from, when it is of one of `paths`; logs that the file is not read. */
  recall(paths: readonly string[]): CapabilityReading | undefined;
  /** A new reading of `paths`: a refusal is remembered, a readable file forgets it. */
  learn(reading: CapabilityReading, paths: readonly string[]): void;
}

export function privacyMemory(
  store: StateStore,
  log: Pick<Log, 'info' | 'warn'>,
  platform: NodeJS.Platform,
): PrivacyMemory {
  const key = STORAGE_KEYS.macPrivacyRefusal;
  const write = (value: unknown): void =>
    void Promise.resolve(store.update(key, value)).catch((error: unknown) =>
      log.warn(`Keeping macOS's answer about the app's VS Code integration file failed: ${errorMessage(error)}`),
    );
  return {
    recall: (paths) => {
      const reading = rememberedRefusal(store.get(key), paths, platform);
      if (reading !== undefined)
        log.info(
          `The app's VS Code integration file ${reading.path} is not read: ` +
            'macOS refused VS Code access to it before, and reading it would ask again. Check Connection looks again.',
        );
      return reading;
    },
    learn: (reading, paths) => {
      const update = refusalUpdate(store.get(key), reading, paths);
      if (update.kind === 'remember') {
        log.info(
          `macOS's refusal of ${update.record.path} is remembered on this machine: ` +
            'no window reads it at start until Check Connection finds it readable.',
        );
        write(update.record);
      } else if (update.kind === 'forget') {
        log.info(
          `macOS no longer refuses the app's VS Code integration file ${reading.path}: its earlier refusal is forgotten.`,
        );
        write(undefined);
      }
    },
  };
}
