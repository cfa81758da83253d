/**
 * Reading the capability file of the application's VS Code integration (PROTOCOL.md §8) from
 * disk: whether it is there, readable, valid, and written by an app that still runs. The format
 * itself is src/protocol/capability.ts. A file whose pid is not running is a quit app, not a
 * broken one: the app leaves it behind when it crashes.
 */
import { join } from 'node:path';
import { FileReadError, readBoundedText } from '../platform/boundedRead';
import { errnoCode, errorMessage } from '../platform/errors';
import { processIsRunning } from '../platform/processes';
import { CAPABILITY_FILE_LOCATIONS, CAPABILITY_FILE_MAX_BYTES, parseCapability, type Capability } from '../protocol/capability';

export type CapabilityReading =
  /** No file: the integration is off, or the app was never installed here. */
  | { readonly kind: 'absent'; readonly path: string }
  /** There, but it cannot be read (permissions, not a regular file, far too large). */
  | { readonly kind: 'unreadable'; readonly path: string; readonly message: string }
  | { readonly kind: 'invalid'; readonly path: string; readonly message: string }
  /** A version this extension does not know: the app is newer. */
  | { readonly kind: 'newer'; readonly path: string; readonly message: string }
  /** Valid, but its pid is not running: the app quit without removing it. */
  | { readonly kind: 'stale'; readonly path: string; readonly capability: Capability }
  | { readonly kind: 'ready'; readonly path: string; readonly capability: Capability };

export type CapabilityReadingKind = CapabilityReading['kind'];

/** Whether a process runs; injected by tests. */
export type ProcessProbe = (pid: number) => boolean;

/** The default places, under a home directory (`os.homedir()`), in the order they are searched. */
export function defaultCapabilityPaths(home: string): string[] {
  return CAPABILITY_FILE_LOCATIONS.map((location) => join(home, location));
}

/** Reads one capability file; never rejects. */
export async function readCapabilityFile(path: string, isRunning: ProcessProbe = processIsRunning): Promise<CapabilityReading> {
  let text: string;
  try {
    // Non-blocking, so a FIFO at that path cannot hang the extension; a regular file of at most the cap.
    text = await readBoundedText(path, { maxBytes: CAPABILITY_FILE_MAX_BYTES });
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'absent', path };
    return { kind: 'unreadable', path, message: describeReadError(error) };
  }
  const parsed = parseCapability(text);
  if (!parsed.ok) return { kind: parsed.defect, path, message: parsed.message };
  return isRunning(parsed.capability.pid) ? { kind: 'ready', path, capability: parsed.capability } : { kind: 'stale', path, capability: parsed.capability };
}

/**
 * Searches the paths in order: the first file of a running app wins; otherwise the first file
 * there is (stale, invalid…: it says the most); otherwise the first path, absent.
 */
export async function findCapability(paths: readonly string[], isRunning: ProcessProbe = processIsRunning): Promise<CapabilityReading> {
  const readings = await Promise.all(paths.map((path) => readCapabilityFile(path, isRunning)));
  return (
    readings.find((reading) => reading.kind === 'ready') ??
    readings.find((reading) => reading.kind !== 'absent') ??
    readings[0] ?? { kind: 'absent', path: '' }
  );
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
