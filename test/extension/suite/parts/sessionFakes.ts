/**
 * A real session (src/extension/session.ts) built from the small fakes of ./fakes.ts, and the
 * reference server it talks to: the parts that need a session (the commands, the link controller,
 * onboarding) start from the same one the session's own test checks, built in one place.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as vscode from 'vscode';
import type { CapabilityChecks } from '../../../../src/client/capabilityReader';
import type { CommandServices } from '../../../../src/extension/commands/services';
import { Session } from '../../../../src/extension/session';
import type { Settings } from '../../../../src/extension/settings';
import {
  createReferenceServer,
  type ReferenceServer,
  type ReferenceServerOptions,
} from '../../../../src/server/server';
import { STORAGE_KEYS } from '../../../../src/tracker/ids';
import type { TrackerState, TrackerStateKind } from '../../../../src/tracker/model/trackerState';
import { FakeMemento, FakeSecretStorage, LOCAL_WINDOW, RecordingLog, RecordingMessages, settingsWith } from './fakes';

export interface SessionFakes {
  readonly session: Session;
  readonly secrets: FakeSecretStorage;
  /** The session's globalState. */
  readonly memento: FakeMemento;
  readonly settings: () => Settings;
}

export interface SessionFakeOptions {
  /** The reference server's port. */
  readonly port: number;
  /**
   * A folder of the test's: the session's home, with no capability file in it, so that only the
   * token in secret storage decides the channel, whatever app runs on this machine.
   */
  readonly home: string;
  readonly log: vscode.LogOutputChannel;
  /** The token already in secret storage; none when undefined. */
  readonly token?: string | undefined;
  /** Settings the part reads besides the port and the capability file. */
  readonly settings?: Partial<Settings>;
  /** The globalState to start from (another session's, as after a restart); a new one when undefined. */
  readonly memento?: FakeMemento;
  /** How the capability file is read (a Mac's privacy refusal, say); this system's when undefined. */
  readonly capabilityChecks?: CapabilityChecks;
}

/** A session of a local window with an empty environment; the caller starts and disposes it. */
export function buildSession(options: SessionFakeOptions): SessionFakes {
  const { port, home, log, token } = options;
  const secrets = new FakeSecretStorage(token === undefined ? {} : { [STORAGE_KEYS.token]: token });
  const memento = options.memento ?? new FakeMemento();
  const settings = settingsWith({
    port,
    capabilityFile: join(home, 'no-capability-file.json'),
    ...options.settings,
  });
  const { capabilityChecks } = options;
  const session = new Session({
    secrets,
    memento,
    log,
    settings,
    host: LOCAL_WINDOW,
    environment: {},
    home,
    ...(capabilityChecks === undefined ? {} : { capabilityChecks }),
  });
  return { session, secrets, memento, settings };
}

/** Resolves with the first state of `kind` the session shows from now on (or shows already). */
export function untilState(session: Session, kind: TrackerStateKind, timeoutMs = 10_000): Promise<TrackerState> {
  const seen: TrackerStateKind[] = [session.state.kind];
  return new Promise((resolve, reject) => {
    if (session.state.kind === kind) return resolve(session.state);
    const timer = setTimeout(() => {
      subscription.dispose();
      reject(new Error(`the session never showed ${kind}; it showed ${seen.join(', ')}`));
    }, timeoutMs);
    const subscription = session.onDidChangeState((state) => {
      seen.push(state.kind);
      if (state.kind !== kind) return;
      clearTimeout(timer);
      subscription.dispose();
      resolve(state);
    });
  });
}

export interface CommandFakes extends SessionFakes {
  readonly log: RecordingLog;
  readonly messages: RecordingMessages;
  /** The session, log, messages and settings, with what the test adds: all a handler under test reads. */
  readonly services: CommandServices;
  dispose(): void;
}

/**
 * What a command handler works with, around a session of `app` (not started) with `token` stored.
 * Only what `more` adds (made with the same log and messages) besides the session, log, messages
 * and settings is there: the other services would be the window's whole parts, and a handler that
 * reached for one fails the test.
 */
export function commandFakes(
  app: ReferenceApp,
  token?: string,
  more: (made: { log: RecordingLog; messages: RecordingMessages }) => Partial<CommandServices> = () => ({}),
): CommandFakes {
  const log = new RecordingLog();
  const messages = new RecordingMessages(log);
  const fakes = buildSession({ port: app.port, home: app.home, log, token });
  const used: Partial<CommandServices> = {
    session: fakes.session,
    log,
    messages,
    settings: fakes.settings,
    ...more({ log, messages }),
  };
  return {
    ...fakes,
    log,
    messages,
    services: used as CommandServices,
    dispose: () => {
      fakes.session.dispose();
      fakes.secrets.dispose();
      messages.dispose();
    },
  };
}

/** The reference server of a `describe` and a home folder for its sessions, both valid from its `before` on. */
export interface ReferenceApp {
  readonly server: ReferenceServer;
  readonly port: number;
  readonly home: string;
  /** The path of every request the server answered, in order; the test empties it. */
  readonly requests: string[];
}

/**
 * Adds `before` and `after` hooks to the calling `describe` that start the reference server on a
 * free port (with `options`) and make a temporary home folder, then close and remove them.
 */
export function useReferenceApp(options: ReferenceServerOptions): ReferenceApp {
  const requests: string[] = [];
  let started: { server: ReferenceServer; port: number; home: string } | undefined;
  const get = (): NonNullable<typeof started> => {
    if (started === undefined) throw new Error('the reference app is used before its before hook ran');
    return started;
  };

  before(async () => {
    const home = await mkdtemp(join(tmpdir(), 'tt-part-'));
    const server = createReferenceServer({
      ...options,
      onRequest: (line, record) => {
        requests.push(record.path);
        options.onRequest?.(line, record);
      },
    });
    started = { server, port: await server.listen(0), home };
  });

  after(async () => {
    if (started === undefined) return;
    await started.server.close();
    await rm(started.home, { recursive: true, force: true });
    started = undefined;
  });

  return {
    get server() {
      return get().server;
    },
    get port() {
      return get().port;
    },
    get home() {
      return get().home;
    },
    requests,
  };
}
