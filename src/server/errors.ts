/**
 * Every error the reference server makes, in one table, as fastify keeps its own in
 * lib/errors.js: per family (the error's `name`) its codes, and what each code means outside,
 * the exit status of a start it stops or the HTTP status of a request it refuses. main.ts and the
 * service read the table by `name` and `code`; no instanceof ladder sorts errors. The sentence is
 * the thrower's: it names the path, the socket or the field at hand, and never a token.
 */

type Outcome = { readonly exitStatus: number } | { readonly httpStatus: number };

export const SERVER_ERRORS = {
  /** The data file (`--data`): a start it stops, or a change it could not hold (undone, then 500). */
  DataFileError: {
    'directory-missing': { exitStatus: 1 },
    'not-writable': { exitStatus: 1 },
    'in-use': { exitStatus: 1 },
    unreadable: { exitStatus: 1 },
    invalid: { exitStatus: 1 },
    'write-failed': { httpStatus: 500 },
  },
  /** The Unix socket of the VS Code integration (`--socket`), before and while listening. */
  SocketPathError: {
    'directory-missing': { exitStatus: 1 },
    'path-too-long': { exitStatus: 1 },
    'not-a-socket': { exitStatus: 1 },
    'in-use': { exitStatus: 1 },
    'not-allowed': { exitStatus: 1 },
  },
  /** The capability file that announces the socket (`--capability-file`). */
  CapabilityFileError: {
    'write-failed': { exitStatus: 1 },
    'remove-failed': { exitStatus: 1 },
  },
  /** A request the service refuses once it is authenticated: the status of `{"error": ...}`. */
  RequestRefusal: {
    'bad-request': { httpStatus: 400 },
    'not-found': { httpStatus: 404 },
  },
} as const satisfies Record<string, Record<string, Outcome>>;

export type ServerErrorName = keyof typeof SERVER_ERRORS;
export type ServerErrorCode<N extends ServerErrorName> = keyof (typeof SERVER_ERRORS)[N] & string;

/** The base of every family: its `name` and `code` are its row in SERVER_ERRORS. */
export abstract class ServerError<N extends ServerErrorName = ServerErrorName> extends Error {
  abstract override readonly name: N;

  constructor(
    readonly code: ServerErrorCode<N>,
    message: string,
  ) {
    super(message);
  }
}

export class DataFileError extends ServerError<'DataFileError'> {
  override readonly name = 'DataFileError';
}

export class SocketPathError extends ServerError<'SocketPathError'> {
  override readonly name = 'SocketPathError';
}

export class CapabilityFileError extends ServerError<'CapabilityFileError'> {
  override readonly name = 'CapabilityFileError';
}

export class RequestRefusal extends ServerError<'RequestRefusal'> {
  override readonly name = 'RequestRefusal';

  get status(): 400 | 404 {
    return SERVER_ERRORS.RequestRefusal[this.code].httpStatus;
  }
}

export function badRequest(message: string): RequestRefusal {
  return new RequestRefusal('bad-request', message);
}

export function notFound(message: string): RequestRefusal {
  return new RequestRefusal('not-found', message);
}

/** The exit status of a start this error stops; undefined for an error the server did not make. */
export function exitStatusOf(error: unknown): number | undefined {
  const outcome = outcomeOf(error);
  return outcome !== undefined && 'exitStatus' in outcome ? outcome.exitStatus : undefined;
}

/** The HTTP status of a request this error ends; undefined for an error the server did not make. */
export function httpStatusOf(error: unknown): number | undefined {
  const outcome = outcomeOf(error);
  return outcome !== undefined && 'httpStatus' in outcome ? outcome.httpStatus : undefined;
}

function outcomeOf(error: unknown): Outcome | undefined {
  if (!(error instanceof ServerError)) return undefined;
  // instanceof of a generic class narrows to its `any` form: name the family's type.
  const { name, code } = error as ServerError;
  const family: Readonly<Record<string, Outcome>> = SERVER_ERRORS[name];
  return family[code];
}
