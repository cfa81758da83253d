/**
 * The capability file of the application's VS Code integration (PROTOCOL.md §8): where the app
 * announces its Unix socket and token. Parsed here without I/O, so the reference server that
 * writes it and the client that reads it agree on one definition, and every defect has one
 * sentence. The sentences never quote the token.
 */

export const CAPABILITY_FILE_VERSION = 1;
/** The app writes a few hundred bytes; anything far larger is not its file, and is not read whole. */
export const CAPABILITY_FILE_MAX_BYTES = 64 * 1024;
/**
 * Where the app writes it, under the user's home: the pre-rebrand container first, as the app's own extension looks.
 */
export const CAPABILITY_FILE_LOCATIONS = [
  'Library/Containers/com.mattes.nowdoing/Data/api-endpoint.json',
  'Library/Containers/com.mattes.clessira/Data/api-endpoint.json',
] as const;

export interface Capability {
  readonly version: typeof CAPABILITY_FILE_VERSION;
  readonly socketPath: string;
  readonly token: string;
  readonly pid: number;
}

export type CapabilityDefect =
  /** Not JSON, not an object, or a field missing or of the wrong type. */
  | 'invalid'
  /** `version` is a whole number above the one this code knows: the app is newer. */
  | 'newer';

export type CapabilityParse =
  | { readonly ok: true; readonly capability: Capability }
  | { readonly ok: false; readonly defect: CapabilityDefect; readonly message: string };

const invalid = (message: string): CapabilityParse => ({ ok: false, defect: 'invalid', message });

/** Checks the file's text exactly as PROTOCOL.md §8 says; unknown fields are ignored. */
export function parseCapability(text: string): CapabilityParse {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return invalid(text.trim() === '' ? 'it is empty.' : 'it is not JSON.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return invalid('it is not a JSON object.');
  const { version, socketPath, token, pid } = parsed as Record<string, unknown>;
  if (version === undefined) return invalid('"version" is missing.');
  if (typeof version === 'number' && Number.isInteger(version) && version > CAPABILITY_FILE_VERSION) {
    return {
      ok: false,
      defect: 'newer',
      message:
        `it has version ${version}, and this extension reads version ${CAPABILITY_FILE_VERSION}: ` +
        'the app is newer than this extension.',
    };
  }
  if (version !== CAPABILITY_FILE_VERSION)
    return invalid(`"version" must be ${CAPABILITY_FILE_VERSION}, not ${describe(version)}.`);
  if (typeof socketPath !== 'string' || socketPath === '')
    return invalid(`"socketPath" must be a non-empty string, not ${describe(socketPath)}.`);
  // The token's value is never described: a wrong type is named, the content is not.
  if (typeof token !== 'string' || token === '')
    return invalid(`"token" must be a non-empty string, not ${token === '' ? 'empty' : typeOf(token)}.`);
  if (typeof pid !== 'number' || !Number.isInteger(pid))
    return invalid(`"pid" must be a whole number, not ${describe(pid)}.`);
  return { ok: true, capability: { version: CAPABILITY_FILE_VERSION, socketPath, token, pid } };
}

/** The file's text as the app writes it. */
export function formatCapability(capability: Omit<Capability, 'version'>): string {
  const { socketPath, token, pid } = capability;
  return `${JSON.stringify({ version: CAPABILITY_FILE_VERSION, socketPath, token, pid })}\n`;
}

/**
 * A wrong value as the sentence quotes it. A string is quoted as JSON writes it, so a line break
 * in it shows as `\n` instead of starting a line of its own in the log.
 */
function describe(value: unknown): string {
  if (typeof value === 'string')
    return value === '' ? 'empty' : JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeOf(value);
}

function typeOf(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
