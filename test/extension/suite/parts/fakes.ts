/**
 * Small fakes of what the window hands each part of src/extension (a memento, a secret store, a
 * log, the message sink), so that a part is built alone, by its own constructor, in the real
 * extension host: `vscode` stays the real one, and what the part stored, logged or told the user
 * is read back from the fake instead of from the screen.
 */
import * as vscode from 'vscode';
import { Messages, type MessageAction, type NoticeTopic } from '../../../../src/extension/messages';
import type { Advice, FixAction } from '../../../../src/tracker/advice/advice';
import { readSettings, type Settings } from '../../../../src/extension/settings';
import type { HostDecision } from '../../../../src/tracker/model/remoteHost';

/** globalState or workspaceState, in memory. */
export class FakeMemento implements vscode.Memento {
  private readonly values = new Map<string, unknown>();

  keys(): readonly string[] {
    return [...this.values.keys()];
  }

  // The overloads are vscode.Memento's own.
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters
  get<T>(key: string): T | undefined;
  get<T>(key: string, defaultValue: T): T;
  get<T>(key: string, defaultValue?: T): T | undefined {
    return this.values.has(key) ? (this.values.get(key) as T) : defaultValue;
  }

  update(key: string, value: unknown): Thenable<void> {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, value);
    return Promise.resolve();
  }
}

/** context.globalState, in memory, with the keys it was told to sync across machines. */
export class FakeGlobalState extends FakeMemento {
  synced: readonly string[] = [];

  setKeysForSync(keys: readonly string[]): void {
    this.synced = keys;
  }
}

/** context.secrets, in memory; a change fires as another window's would. */
export class FakeSecretStorage implements vscode.SecretStorage {
  private readonly values = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.SecretStorageChangeEvent>();
  readonly onDidChange = this.changed.event;
  /** How many times each key was read: a part that must not read the secret again is checked here. */
  readonly reads = new Map<string, number>();

  constructor(initial: Readonly<Record<string, string>> = {}) {
    for (const [key, value] of Object.entries(initial)) this.values.set(key, value);
  }

  get(key: string): Thenable<string | undefined> {
    this.reads.set(key, (this.reads.get(key) ?? 0) + 1);
    return Promise.resolve(this.values.get(key));
  }

  store(key: string, value: string): Thenable<void> {
    this.values.set(key, value);
    this.changed.fire({ key });
    return Promise.resolve();
  }

  delete(key: string): Thenable<void> {
    this.values.delete(key);
    this.changed.fire({ key });
    return Promise.resolve();
  }

  dispose(): void {
    this.changed.dispose();
  }
}

export type LogLevelName = 'trace' | 'debug' | 'info' | 'warn' | 'error';

export interface LogLine {
  readonly level: LogLevelName;
  readonly message: string;
}

/** The log channel, keeping every line it was given (with its level) instead of writing it anywhere. */
export class RecordingLog implements vscode.LogOutputChannel {
  readonly lines: LogLine[] = [];
  /** How many times it was shown. */
  shown = 0;
  readonly name = 'recording log';
  readonly logLevel = vscode.LogLevel.Trace;
  private readonly levelChanged = new vscode.EventEmitter<vscode.LogLevel>();
  readonly onDidChangeLogLevel = this.levelChanged.event;

  /** The messages logged at `level`, in order. */
  at(level: LogLevelName): string[] {
    return this.lines.filter((line) => line.level === level).map((line) => line.message);
  }

  /** Every message as one text, for an assertion's explanation. */
  toString(): string {
    return this.lines.map((line) => `${line.level}: ${line.message}`).join('\n');
  }

  trace(message: string): void {
    this.lines.push({ level: 'trace', message });
  }

  debug(message: string): void {
    this.lines.push({ level: 'debug', message });
  }

  info(message: string): void {
    this.lines.push({ level: 'info', message });
  }

  warn(message: string): void {
    this.lines.push({ level: 'warn', message });
  }

  error(error: string | Error): void {
    this.lines.push({ level: 'error', message: typeof error === 'string' ? error : error.message });
  }

  append(): void {}
  appendLine(): void {}
  replace(): void {}
  clear(): void {}
  show(): void {
    this.shown++;
  }

  hide(): void {}

  dispose(): void {
    this.levelChanged.dispose();
  }
}

export type Said =
  | { readonly kind: 'info' | 'warning' | 'error'; readonly message: string; readonly actions: readonly string[] }
  | { readonly kind: 'advice'; readonly message: string; readonly action: FixAction | undefined }
  | { readonly kind: 'notice'; readonly topic: NoticeTopic; readonly message: string }
  | { readonly kind: 'status'; readonly message: string };

/**
 * The message sink, keeping what each part would have shown instead of showing it: nothing waits
 * for a click, and no notification of one test is left on screen for the next.
 */
export class RecordingMessages extends Messages {
  readonly said: Said[] = [];
  private readonly arrived = new vscode.EventEmitter<Said>();
  /** The buttons of each message said with some. */
  private readonly buttons = new Map<Said, readonly MessageAction[]>();

  constructor(log: vscode.LogOutputChannel = new RecordingLog()) {
    super(log);
  }

  /** Resolves with the first message (said already or still to come) that `matches`. */
  next(matches: (said: Said) => boolean, what: string, timeoutMs = 10_000): Promise<Said> {
    const already = this.said.find(matches);
    if (already) return Promise.resolve(already);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        subscription.dispose();
        reject(new Error(`${what} was not said within ${timeoutMs} ms; said: ${JSON.stringify(this.said)}`));
      }, timeoutMs);
      const subscription = this.arrived.event((said) => {
        if (!matches(said)) return;
        clearTimeout(timer);
        subscription.dispose();
        resolve(said);
      });
    });
  }

  /** Runs the button `label` of `said` as a click on it would (a recorded message waits for no click). */
  async click(said: Said, label: string): Promise<void> {
    const action = this.buttons.get(said)?.find((candidate) => candidate.label === label);
    if (action === undefined) throw new Error(`no button ${label} on ${JSON.stringify(said)}`);
    await action.run();
  }

  override info(message: string, ...actions: MessageAction[]): Promise<void> {
    return this.record({ kind: 'info', message, actions: actions.map((action) => action.label) }, actions);
  }

  override warn(message: string, ...actions: MessageAction[]): Promise<void> {
    return this.record({ kind: 'warning', message, actions: actions.map((action) => action.label) }, actions);
  }

  override error(message: string, ...actions: MessageAction[]): Promise<void> {
    return this.record({ kind: 'error', message, actions: actions.map((action) => action.label) }, actions);
  }

  override advise(advice: Advice): Promise<void> {
    return this.record({ kind: 'advice', message: advice.message, action: advice.action });
  }

  override notice(topic: NoticeTopic, message: string): void {
    void this.record({ kind: 'notice', topic, message });
  }

  override status(text: string): void {
    void this.record({ kind: 'status', message: text });
  }

  override ask(): Promise<string | undefined> {
    return Promise.resolve(undefined);
  }

  override dispose(): void {
    this.arrived.dispose();
    super.dispose();
  }

  private record(said: Said, actions: readonly MessageAction[] = []): Promise<void> {
    if (actions.length > 0) this.buttons.set(said, actions);
    this.said.push(said);
    this.arrived.fire(said);
    return Promise.resolve();
  }
}

/** The settings as this window reads them, with what a test changes: a part reads them through a function. */
export function settingsWith(changes: Partial<Settings> = {}): () => Settings {
  const settings: Settings = { ...readSettings(), ...changes };
  return () => settings;
}

/** The host decision of a local window: the part may talk to the app. */
export const LOCAL_WINDOW: () => HostDecision = () => ({ allowed: true, why: 'localWindow' });
