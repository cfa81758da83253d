import { homedir } from 'node:os';
import * as vscode from 'vscode';
import { ConfigurationError, type ServiceClient } from '../client';
import { findCapability, type CapabilityChecks, type CapabilityReading } from '../client/capabilityReader';
import { folderIdentity, nodeFileSystem } from '../platform/fileSystemPort';
import { CONTEXT_KEYS } from '../tracker/ids';
import { adviceWithoutChannel } from '../tracker/advice/advice';
import { CapabilityWatcher } from '../tracker/model/capabilityWatcher';
import {
  capabilityProblem,
  channelKey,
  chooseChannel,
  describeNoChannelForLog,
  describeRouteForLog,
  type Channel,
} from '../tracker/model/channel';
import { latestWins } from '../platform/latestWins';
import { Poller, pollingPaused } from '../tracker/model/poller';
import { signingPause } from '../tracker/model/signingPause';
import { describeStateChangeForLog } from '../tracker/model/stateChangeLog';
import { pollStatus, type PollSource } from '../tracker/model/statusSource';
import type { HostDecision } from '../tracker/model/remoteHost';
import type { TrackerState } from '../tracker/model/trackerState';
import { privacyMemory, type PrivacyMemory } from './privacyMemory';
import { logRequest } from './requestLog';
import { channelClient } from './sessionClient';
import { capabilityPaths, readSources, type Sources } from './sessionSources';
import type { Settings } from './settings';
import { TokenStore } from './tokenStore';
import type { Log } from './oneLineLog';

export interface SessionOptions {
  readonly secrets: vscode.SecretStorage;
  /** globalState, shared by every window: what `headerPrefix: auto` learned, and macOS's refusal of the app's file. */
  readonly memento: vscode.Memento;
  readonly log: Log;
  readonly settings: () => Settings;
  /** Where the token variables are read; default process.env. */
  readonly environment?: Readonly<Record<string, string | undefined>>;
  /** Whose ~/Library/Containers the default capability files are in; default os.homedir(). */
  readonly home?: string;
  /** Whether this extension host may talk to the app at all (a remote machine's may not); asked at every reconnect. */
  readonly host: () => HostDecision;
  /** How the capability file is read; default this system's. Tests put a Mac's privacy refusal here. */
  readonly capabilityChecks?: CapabilityChecks;
}

/**
 * The one owner of the connection to the app. It alone decides the channel (the app's VS Code
 * integration when its capability file says the app runs, else the HTTP API with a token from
 * secret storage or the environment), reads the token sources, builds and replaces the client,
 * owns the poller and the current state, fires the state's changes and sets the context keys. The status
 * bar renders it; commands, onboarding, the offline queue and the branch reporter ask it for the
 * client and subscribe to it. The decisions themselves are src/tracker/model/channel.ts.
 */
export class Session implements vscode.Disposable {
  private readonly tokens: TokenStore;
  private readonly watcher: CapabilityWatcher;
  /** macOS's refusal of the capability file, kept for the next window and start. */
  private readonly privacy: PrivacyMemory;
  private readonly poller: Poller;
  private readonly stateChanged = new vscode.EventEmitter<TrackerState>();
  /**
   * Fires with every new state, polled or known without polling, also one equal to the last (the ledger credits time
   * by each answer, the queue sends on it); a part that draws compares with `sameState` and stops there.
   */
  readonly onDidChangeState = this.stateChanged.event;
  private readonly subscriptions: vscode.Disposable[] = [];

  private currentState: TrackerState = { kind: 'starting' };
  private currentChannel: Channel;
  private currentClient: ServiceClient | undefined;
  private currentKey: string | undefined;
  private sources: Sources | undefined;
  /** GET /status, or GET /current for an app without it (a first release); tried afresh with every new client. */
  private pollSource: PollSource = 'status';
  /** Why a channel built no client: a capability file naming an unusable socket, say. */
  private clientProblem: string | undefined;
  /**
   * The capability-file setting under which the integration was in use in this window: while it
   * stays the same, the file gone means the app quit (offline), not a user who never set it up.
   */
  private integrationSeenFor: string | undefined;
  /** The context keys' values as last set, so each is set only when it changes. */
  private readonly published = new Map<string, unknown>();
  /** The reconnect under way (or the last one): `ready()` waits for it. */
  private pendingApply: Promise<void> = Promise.resolve();
  private disposed = false;
  private focused = vscode.window.state.focused;

  /** Reads the sources and applies them; only the latest of overlapping calls applies. */
  private readonly applyLatest: () => Promise<void>;

  constructor(private readonly options: SessionOptions) {
    this.currentChannel = { kind: 'none', route: { kind: 'http', port: options.settings().port }, reason: 'noToken' };
    this.tokens = new TokenStore(options.secrets);
    this.privacy = privacyMemory(options.memento, options.log, options.capabilityChecks?.platform ?? process.platform);
    this.watcher = new CapabilityWatcher({
      read: () => this.readCapability(),
      onChange: (reading) => this.onCapability(reading),
      paths: () => this.capabilityPaths(),
      // The branch watcher's folder watch: one implementation of "tell me when this file changes".
      watchFolder: (folder, names, onChange, onError) =>
        nodeFileSystem.watchDirectory(folder, names, onChange, onError),
      folderIdentity,
      remembered: this.privacy.recall(this.capabilityPaths()),
    });
    this.poller = new Poller({
      poll: () => this.pollOnce(),
      onState: (state) => this.show(state),
      timing: () => ({
        intervalSeconds: options.settings().pollIntervalSeconds,
        focused: vscode.window.state.focused,
        active: vscode.window.state.active,
      }),
      clock: Date.now,
    });
    this.applyLatest = latestWins(
      () =>
        readSources({
          tokens: this.tokens,
          log: options.log,
          environment: options.environment ?? process.env,
          host: options.host,
          capability: () => this.watcher.current(),
        }),
      (sources) => this.apply(sources),
    );
    this.subscriptions.push(
      // Another window storing or clearing the token fires this too.
      this.tokens.onDidChange(() => void this.reconnect()),
      // Also fired as the window is used or left unused (`active`): only taking the focus polls at once.
      vscode.window.onDidChangeWindowState(({ focused }) => {
        const taken = focused && !this.focused;
        this.focused = focused;
        return taken ? void this.refreshUnlessPaused() : this.poller.windowChanged(this.currentState);
      }),
    );
  }

  get state(): TrackerState {
    return this.currentState;
  }

  get channel(): Channel {
    return this.currentChannel;
  }

  /** The client of the channel in use; undefined when there is none. */
  get client(): ServiceClient | undefined {
    return this.currentClient;
  }

  /**
   * The app answers GET /status with 404: a first release, with five endpoints (PROTOCOL.md §8).
   * Stop and Log Time are not there; the status comes from GET /current.
   */
  get firstRelease(): boolean {
    return this.pollSource === 'current';
  }

  /** What the capability file said last time it was read (absent until the first read). */
  get capability(): CapabilityReading {
    return this.sources?.capability ?? { kind: 'absent', path: '' };
  }

  /** A token is in secret storage (Clear Token has something to clear). */
  get tokenStored(): boolean {
    return this.sources !== undefined && this.sources.tokenStored;
  }

  /** The client once every change made so far is applied: commands ask this, not `client`. */
  async ready(): Promise<ServiceClient | undefined> {
    await this.pendingApply;
    return this.currentClient;
  }

  /** Polls now; also the way out of the pause after a rejected token (Check Connection, Set Token). */
  refresh(): Promise<void> {
    return this.poller.refresh();
  }

  /**
   * Polls now unless polling is paused (a rejected token, a lockout): for window focus and the end
   * of a command, which must not add failed sign-ins on their own.
   */
  refreshUnlessPaused(): Promise<void> {
    return pollingPaused(this.currentState, Date.now()) ? Promise.resolve() : this.refresh();
  }

  /**
   * Re-reads every source and puts the result into use: at start, after a token or setting change,
   * or a new capability file. Resolves once the status bar asked again (at start: once the first
   * state is known), so a command right after goes out the new way.
   */
  reconnect(): Promise<void> {
    this.pendingApply = this.applyLatest();
    return this.pendingApply;
  }

  /** Set Token: done means in use. */
  async setToken(token: string): Promise<void> {
    await this.tokens.set(token);
    this.options.log.info('Token stored in secret storage.');
    await this.reconnect();
  }

  async clearToken(): Promise<void> {
    await this.tokens.clear();
    this.options.log.info('Token removed from secret storage.');
    await this.reconnect();
  }

  /** Reads the capability file now (Check Connection) and waits for whatever that changes. */
  async recheckIntegration(): Promise<void> {
    await this.followCapability();
    await this.pendingApply;
  }

  /** A setting changed: the capability file path, port, prefix or the remote opt-in may be new. */
  async settingsChanged(): Promise<void> {
    await this.followCapability(true);
    await this.reconnect();
  }

  /** Reads the capability file now, or, where this host may not talk to the app, stops looking at it. */
  private async followCapability(settingChanged = false): Promise<void> {
    if (!this.options.host().allowed) return this.watcher.stop();
    await (settingChanged ? this.watcher.settingsChanged() : this.watcher.check());
  }

  // ---- sources (read by ./sessionSources.ts) -------------------------------------------------------

  private readCapability(): Promise<CapabilityReading> {
    return findCapability(this.capabilityPaths(), this.options.capabilityChecks);
  }

  private capabilityPaths(): readonly string[] {
    return capabilityPaths(this.options.settings().capabilityFile, this.options.home ?? homedir());
  }

  private onCapability(reading: CapabilityReading): void {
    this.privacy.learn(reading, this.capabilityPaths());
    const problem = capabilityProblem(reading);
    if (problem !== undefined) this.options.log.warn(problem);
    else if (reading.kind === 'ready')
      this.options.log.info(
        `Found the app's VS Code integration in ${reading.path} (app process ${reading.capability.pid}).`,
      );
    else if (this.sources && this.sources.capability.kind !== 'absent')
      this.options.log.info(
        "The app's VS Code integration file is gone: the app quit or the integration was turned off.",
      );
    // The first reading is awaited by the first reconnect itself.
    if (this.sources) void this.reconnect();
  }

  // ---- deciding --------------------------------------------------------------------------------

  private async apply(sources: Sources): Promise<void> {
    if (this.disposed) return;
    this.sources = sources;
    const settings = this.options.settings();
    if (sources.capability.kind === 'ready') this.integrationSeenFor = settings.capabilityFile;
    const channel = chooseChannel({
      capability: sources.capability,
      httpToken: sources.httpToken,
      port: settings.port,
      integrationSeen: this.integrationSeenFor === settings.capabilityFile,
      hostRefused: sources.hostRefused,
    });
    this.setContext(CONTEXT_KEYS.tokenStored, sources.tokenStored);
    const key = channelKey(channel, settings.headerPrefix);
    const sameRoute = sameRouteAs(this.currentChannel, channel);
    if (key !== this.currentKey) {
      this.currentKey = key;
      this.replaceClient(channel, settings);
      this.currentChannel = channel;
      this.setContext(CONTEXT_KEYS.hasToken, this.currentClient !== undefined);
    }
    if (this.currentClient && !(sameRoute && signingPause(this.currentState, Date.now())?.kind === 'lockedOut')) {
      await this.refresh();
    } else {
      // No client: a state without polling. Locked out at this same app: every request is refused
      // until the end, a new token's too, so nothing is sent now; the poll planned for then checks it.
      if (!this.currentClient) this.show(this.stateWithoutClient());
      // Re-planning for a state that never polls cancels a poll already scheduled.
      this.poller.reschedule(this.currentState);
    }
  }

  private replaceClient(channel: Channel, settings: Settings): void {
    const old = this.currentClient;
    this.currentClient = undefined;
    this.pollSource = 'status';
    if (old)
      void old
        .close()
        .catch((error: unknown) => this.options.log.warn(`Closing the old connection failed: ${String(error)}`));
    this.clientProblem = undefined;
    if (channel.kind === 'none') {
      this.options.log.info(describeNoChannelForLog(channel.reason));
      return;
    }
    try {
      this.currentClient = channelClient(channel, {
        memento: this.options.memento,
        log: this.options.log,
        headerPrefix: settings.headerPrefix,
        onRequest: (record) => logRequest(this.options.log, record),
      });
    } catch (error) {
      if (!(error instanceof ConfigurationError)) throw error;
      this.clientProblem = error.message;
      this.options.log.error(`Cannot talk to the app ${describeRouteForLog(channel.route)}: ${error.message}`);
    }
  }

  private async pollOnce(): Promise<TrackerState> {
    const client = this.currentClient;
    if (!client) return this.stateWithoutClient();
    const outcome = await pollStatus(client, this.currentState, Date.now, this.pollSource);
    // An answer for a client replaced meanwhile says nothing about the new one, nor about none.
    if (client !== this.currentClient) return this.currentClient ? outcome.state : this.stateWithoutClient();
    this.pollSource = outcome.source;
    return outcome.state;
  }

  private stateWithoutClient(): TrackerState {
    if (this.clientProblem !== undefined) return { kind: 'failed', message: this.clientProblem };
    const channel = this.currentChannel;
    if (channel.kind !== 'none') return { kind: 'failed', message: 'No client.' };
    switch (channel.reason) {
      case 'noToken':
      case 'remoteHost':
        return { kind: channel.reason };
      case 'appClosed':
        return { kind: 'offline' };
      case 'integrationUnusable':
        return { kind: 'failed', message: adviceWithoutChannel(channel.reason, this.capability).message };
    }
  }

  // ---- state -----------------------------------------------------------------------------------

  /**
   * Shows what a check outside the poll learned (Check Connection's one request while polling is
   * paused), as a poll's answer would show it, and plans the next poll from it.
   */
  showChecked(state: TrackerState): void {
    this.show(state);
    this.poller.reschedule(state);
  }

  private show(state: TrackerState): void {
    if (this.disposed) return;
    const change = describeStateChangeForLog(this.currentState, state);
    if (change !== undefined) this.options.log[change.level](change.line);
    this.currentState = state;
    this.setContext(CONTEXT_KEYS.tracking, state.kind === 'tracking');
    // The socket refusing is how a quit or crashed app shows first: look at its file now.
    if (state.kind === 'offline' && this.currentChannel.kind === 'integration') void this.watcher.check();
    this.stateChanged.fire(state);
  }

  private setContext(key: string, value: unknown): void {
    if (this.published.has(key) && this.published.get(key) === value) return;
    this.published.set(key, value);
    void vscode.commands.executeCommand('setContext', key, value);
  }

  dispose(): void {
    this.disposed = true;
    this.poller.dispose();
    this.watcher.dispose();
    void this.currentClient?.close().catch(() => undefined);
    this.currentClient = undefined;
    for (const subscription of this.subscriptions) subscription.dispose();
    this.tokens.dispose();
    this.stateChanged.dispose();
  }
}

/** Both channels lead to the same app: the same port, or the same socket. */
function sameRouteAs({ route: a }: Channel, { route: b }: Channel): boolean {
  return a.kind === 'http'
    ? b.kind === 'http' && a.port === b.port
    : b.kind === 'integration' && a.socketPath === b.socketPath;
}
