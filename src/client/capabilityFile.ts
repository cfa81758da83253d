/**
 * Reading the capability file of the application's VS Code integration (PROTOCOL.md §8) from
 * disk: whether it is there, readable, valid, and written by an app that still runs. The format
 * itself is src/protocol/capability.ts. A file whose pid is not running is a quit app, not a
 * broken one: the app leaves it behind when it crashes.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { CAPABILITY_FILE_LOCATIONS, CAPABILITY_FILE_MAX_BYTES, parseCapability, type Capability } from '../protocol/capability';
import { processIsRunning } from './processes';

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
    text = await readSmallRegularFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'absent', path };
    return { kind: 'unreadable', path, message: error instanceof UnreadableFile ? error.message : describeReadError(code, error) };
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

class UnreadableFile extends Error {}

/**
 * Non-blocking open, so a FIFO at that path cannot hang the extension; then only a regular file
 * of at most CAPABILITY_FILE_MAX_BYTES is read.
 */
async function readSmallRegularFile(path: string): Promise<string> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new UnreadableFile('it is not a regular file.');
    if (stats.size > CAPABILITY_FILE_MAX_BYTES) throw new UnreadableFile(`it is ${stats.size} bytes, far larger than a capability file (at most ${CAPABILITY_FILE_MAX_BYTES}).`);
    const buffer = Buffer.alloc(CAPABILITY_FILE_MAX_BYTES + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    if (bytesRead > CAPABILITY_FILE_MAX_BYTES) throw new UnreadableFile(`it is larger than a capability file (at most ${CAPABILITY_FILE_MAX_BYTES} bytes).`);
    return buffer.toString('utf8', 0, bytesRead);
  } finally {
    await handle.close();
  }
}

function describeReadError(code: string | undefined, error: unknown): string {
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return 'this user may not read it.';
    case 'EISDIR':
      return 'it is a folder, not a file.';
    default:
      return `reading it failed (${code ?? (error instanceof Error ? error.message : String(error))}).`;
  }
}
