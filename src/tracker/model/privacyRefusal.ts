/**
 * macOS asks again at each start of VS Code before it lets VS Code read another app's data, whatever
 * the user answered before (users of other programs that read app containers report the prompt at
 * every launch; Full Disk Access ends it). A user who declined and uses only the HTTP API would meet it
 * at every start. So a refusal is remembered on this machine, for every window: the path refused,
 * nothing else. While that path is one the extension would read, the file is not read at start;
 * Check Connection reads it again, and an answer that is no refusal forgets it. Pure: the extension
 * keeps the record in globalState.
 */
import { isMacPrivacyRefusal, macPrivacyRefusal, type CapabilityReading } from '../../client/capabilityReader';
import { deniedByMacPrivacy } from '../../client/macPrivacy';

/** What globalState holds: the capability file macOS refused. */
export interface PrivacyRefusal {
  readonly path: string;
}

/** Far longer than any path a Mac allows (1024 bytes): a longer one is not a record this extension wrote. */
const MAX_PATH_LENGTH = 4096;

/** The record as written; undefined for anything else (another version's, a damaged value). */
export function readPrivacyRefusal(value: unknown): PrivacyRefusal | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { path } = value as { path?: unknown };
  if (typeof path !== 'string' || path.length === 0 || path.length > MAX_PATH_LENGTH) return undefined;
  return { path };
}

/**
 * The reading to start from without reading the file: the remembered refusal, when its path is one
 * of `paths` (those the extension would read now) and an EPERM there on `platform` would still be
 * macOS's privacy consent (a record no Mac wrote holds nothing back).
 */
export function rememberedRefusal(
  value: unknown,
  paths: readonly string[],
  platform: NodeJS.Platform,
): CapabilityReading | undefined {
  const record = readPrivacyRefusal(value);
  if (record === undefined || !paths.includes(record.path)) return undefined;
  if (!deniedByMacPrivacy(record.path, 'EPERM', platform)) return undefined;
  return macPrivacyRefusal(record.path);
}

/** What to do with the stored record after a reading. */
export type RefusalUpdate =
  | { readonly kind: 'remember'; readonly record: PrivacyRefusal }
  | { readonly kind: 'forget' }
  | { readonly kind: 'keep' };

/**
 * After `reading` of `paths`: a refusal is remembered by its path. Any other reading forgets a
 * record whose path was among those read: the user allowed VS Code, or gave it Full Disk Access. A
 * record of a path not read now (another window's setting) stays, and so does a value that is no
 * record, which holds nothing back.
 */
export function refusalUpdate(value: unknown, reading: CapabilityReading, paths: readonly string[]): RefusalUpdate {
  const record = readPrivacyRefusal(value);
  if (isMacPrivacyRefusal(reading))
    return record?.path === reading.path ? { kind: 'keep' } : { kind: 'remember', record: { path: reading.path } };
  return record !== undefined && paths.includes(record.path) ? { kind: 'forget' } : { kind: 'keep' };
}
