/**
 * What the session reads before it chooses a channel: the token (secret storage, then the
 * environment's variables) and the app's capability file, unless this host may not talk to the
 * app at all. The choice itself is src/tracker/model/channel.ts; the session applies it.
 */
import { defaultCapabilityPaths, type CapabilityReading } from '../client/capabilityReader';
import { errorMessage } from '../platform/errors';
import { TOKEN_ENVIRONMENT_VARIABLES } from '../protocol/constants';
import { firstSetVariable } from '../protocol/environment';
import type { HttpToken } from '../tracker/model/channel';
import type { HostDecision } from '../tracker/model/remoteHost';
import type { TokenStore } from './tokenStore';
import type { Log } from './oneLineLog';

/** What the last reconnect read: the sources a channel is chosen from. */
export interface Sources {
  readonly httpToken: HttpToken | undefined;
  readonly tokenStored: boolean;
  readonly capability: CapabilityReading;
  /** The host may not send: no file was read, no token counts. */
  readonly hostRefused: boolean;
}

export interface SourceReaders {
  readonly tokens: Pick<TokenStore, 'get'>;
  readonly log: Pick<Log, 'error'>;
  /** Where the token variables are read. */
  readonly environment: Readonly<Record<string, string | undefined>>;
  readonly host: () => HostDecision;
  /** The capability file as the watcher read it last (or reads it now). */
  readonly capability: () => Promise<CapabilityReading>;
}

export async function readSources({ tokens, log, environment, host, capability }: SourceReaders): Promise<Sources> {
  // A remote machine's files and sockets are not the user's app: not even looked at.
  const hostRefused = !host().allowed;
  // Both at once: the keychain answers across processes, and the first status bar text waits for both.
  const [stored, reading] = await Promise.all([
    // A keychain that cannot be read (locked, no keyring on Linux) must not leave the status bar
    // "connecting" forever: it reads as no token, and the log says why.
    tokens.get().catch((error: unknown) => {
      log.error(`Reading the token from secret storage failed: ${errorMessage(error)}`);
      return undefined;
    }),
    hostRefused ? Promise.resolve({ kind: 'absent' as const, path: '' }) : capability(),
  ]);
  const fromEnvironment = firstSetVariable(environment, TOKEN_ENVIRONMENT_VARIABLES);
  let httpToken: HttpToken | undefined;
  if (stored) httpToken = { token: stored, source: 'secretStorage' };
  else if (fromEnvironment) httpToken = { token: fromEnvironment.value, source: `$${fromEnvironment.name}` };
  return { httpToken, tokenStored: stored !== undefined, capability: reading, hostRefused };
}

/** The setting's file, or the default places under `home`. */
export function capabilityPaths(configured: string, home: string): readonly string[] {
  return configured === '' ? defaultCapabilityPaths(home) : [configured];
}
