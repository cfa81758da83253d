/**
 * The app's own VS Code extension beside this one, in this window: on activation and whenever the
 * installed or enabled extensions change, the pure decision (src/tracker/coexistence) is asked with
 * what each extension would do by its effective settings, and each question it returns is shown in
 * turn. A choice is written to the USER settings (never a workspace's: the decision is the person's,
 * for every window) through each extension's own setting, remembered in globalState with the set of
 * the app's extensions it was about, and logged in one line. A dismissal writes nothing and is
 * remembered the same way, so it is not asked again at each start, only once that set changes.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../../platform/errors';
import { recognizePeers, type InstalledExtension, type Peer } from '../../tracker/coexistence/peers';
import {
  coexistenceQuestions,
  readRemembered,
  remember,
  showsActivity,
  type Doing,
  type PeerFacts,
  type Question,
} from '../../tracker/coexistence/questions';
import { STORAGE_KEYS } from '../../tracker/ids';
import type { Settings } from '../settings';

export interface CoexistenceOptions {
  /** This extension's id, never taken for the app's own. */
  readonly ownId: string;
  /** globalState: the answers, for every window of this machine. */
  readonly memento: vscode.Memento;
  readonly log: vscode.LogOutputChannel;
  readonly settings: () => Settings;
  /** Shows a question with its choices; resolves to the chosen label, undefined when dismissed. */
  readonly ask: (message: string, ...labels: string[]) => Thenable<string | undefined>;
  /** The installed and enabled extensions (vscode.extensions.all lists no disabled one). */
  readonly extensions: () => readonly InstalledExtension[];
  readonly onDidChangeExtensions: vscode.Event<void>;
  /** The message sink: a setting that could not be written (error), nothing to ask on demand (info). */
  readonly tell: { readonly info: (message: string) => unknown; readonly error: (message: string) => unknown };
}

export class Coexistence implements vscode.Disposable {
  private readonly subscription: vscode.Disposable;
  /** The check under way; a change meanwhile runs one more after it, never two at once. */
  private running: Promise<void> | undefined;
  private again = false;
  /** What the last look found: how many of the app's extensions, and how many questions they made. */
  private found = { peers: 0, questions: 0 };

  constructor(private readonly options: CoexistenceOptions) {
    this.subscription = options.onDidChangeExtensions(() => void this.check());
  }

  /** Asks what is doubled now, one question after the other; resolves once every question was answered or dismissed. */
  check(): Promise<void> {
    if (this.running !== undefined) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      let more = true;
      while (more) {
        this.again = false;
        await this.askEach();
        more = this.changedMeanwhile();
      }
    })().finally(() => (this.running = undefined));
    return this.running;
  }

  /** Forgets every answer and asks what is doubled now; says why when nothing is. */
  async askAgain(): Promise<void> {
    await this.options.memento.update(STORAGE_KEYS.coexistence, undefined);
    await this.check();
    const { peers, questions } = this.found;
    if (questions > 0) return;
    this.options.log.info(
      `Ask Again About the App's Own Extension: ${peers} of the app's extensions, nothing doubled.`,
    );
    this.options.tell.info(
      peers === 0
        ? vscode.l10n.t("The app's own extension is not installed or not enabled here, so there is nothing to choose.")
        : vscode.l10n.t(
            "The app's own extension and this one do not both report branches or show the activity now, so there is nothing to choose.",
          ),
    );
  }

  dispose(): void {
    this.subscription.dispose();
  }

  /** Whether the extensions changed while a check ran (a method: the loop cannot see the handler set it). */
  private changedMeanwhile(): boolean {
    return this.again;
  }

  private async askEach(): Promise<void> {
    const { ownId, extensions, settings } = this.options;
    const peers = recognizePeers(extensions(), ownId);
    this.found = { peers: peers.length, questions: 0 };
    if (peers.length === 0) return;
    const current = settings();
    const ours: Doing = {
      reportsBranches: current.git.reportBranchChanges !== false,
      showsActivity: showsActivity(current.statusFormat, current.privateStatusBar),
    };
    const facts = { ours, peers: peers.map(peerFacts), remembered: this.remembered() };
    const questions = coexistenceQuestions(facts);
    this.found = { peers: peers.length, questions: questions.length };
    for (const question of questions) await this.ask(question);
  }

  private async ask(question: Question): Promise<void> {
    const labels = question.choices.map((choice) => choice.label);
    const said = await this.options.ask(question.message, ...labels);
    // Another window may have asked the same and been answered first: its answer stands.
    if (this.remembered()[question.topic]?.peers === question.peers) return;
    const choice = question.choices.find((one) => one.label === said);
    await this.options.memento.update(STORAGE_KEYS.coexistence, remember(this.remembered(), question, choice));
    if (choice === undefined) {
      this.options.log.info(
        `Beside ${question.peers}: the question about ${question.topic} was dismissed; nothing changed.`,
      );
      return;
    }
    const config = vscode.workspace.getConfiguration();
    try {
      for (const { key, value } of choice.writes) await config.update(key, value, vscode.ConfigurationTarget.Global);
    } catch (error) {
      this.options.log.warn(`Beside ${question.peers}: "${choice.label}" could not be applied: ${errorMessage(error)}`);
      this.options.tell.error(
        vscode.l10n.t('"{0}" could not change your user settings: {1}', choice.label, errorMessage(error)),
      );
      return;
    }
    const written = choice.writes.map(({ key, value }) => `${key} = ${JSON.stringify(value)}`).join(', ');
    this.options.log.info(`Beside ${question.peers}: "${choice.label}": set ${written} in the user settings.`);
  }

  private remembered(): ReturnType<typeof readRemembered> {
    return readRemembered(this.options.memento.get(STORAGE_KEYS.coexistence));
  }
}

/** What the app's extension would do in this window, by its own settings (their defaults are its manifest's). */
function peerFacts(peer: Peer): PeerFacts {
  const config = vscode.workspace.getConfiguration();
  const on = (key: string): boolean => config.get<unknown>(key) !== false;
  return { peer, reportsBranches: on(peer.branchSetting), showsActivity: peer.activitySettings.some(on) };
}
