/**
 * The app's own VS Code extension beside this one, in this window. Its settings are read, never
 * written (both extensions read the merged value, so a write would be undone by any repository's
 * settings, and they are the user's): while it reports branch switches, this one does not, unless
 * the user's own `timeTracker.git.reportBranchChanges` is `always`. That, and a status bar showing
 * the activity twice, are said once per peer (remembered in globalState for every window) and logged.
 */
import * as vscode from 'vscode';
import {
  besideSentences,
  readSaid,
  recognizePeers,
  reportingPeer,
  type InstalledExtension,
  type Peer,
  type PeerDoing,
} from '../../tracker/coexistence/peers';
import { STORAGE_KEYS } from '../../tracker/ids';
import type { Messages } from '../messages';
import { SECTION, type Settings } from '../settings';
import type { Log } from '../oneLineLog';

export interface CoexistenceOptions {
  /** This extension's id, never taken for the app's own. */
  readonly ownId: string;
  /** globalState: what was said, for every window of this machine. */
  readonly memento: vscode.Memento;
  readonly log: Pick<Log, 'info'>;
  readonly settings: () => Settings;
  readonly messages: Pick<Messages, 'info' | 'actions'>;
  /** The installed and enabled extensions (vscode.extensions.all lists no disabled one). */
  readonly extensions: () => readonly InstalledExtension[];
  readonly onDidChangeExtensions: vscode.Event<void>;
}

export class Coexistence implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** The app's extensions, or what they or this one do, changed: the status bar's tooltip says it again. */
  readonly onDidChange = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];
  private peers: readonly Peer[] = [];
  private reporting: Peer | undefined;

  constructor(private readonly options: CoexistenceOptions) {
    this.subscriptions = [
      options.onDidChangeExtensions(() => void this.check()),
      vscode.workspace.onDidChangeConfiguration((event) => {
        const sections = [
          `${SECTION}.git.reportBranchChanges`,
          ...this.peers.map(({ branchSetting }) => branchSetting),
        ];
        if (sections.some((section) => event.affectsConfiguration(section))) void this.check();
      }),
    ];
  }

  /** The app's extension that reports branch switches in this window, so this one does not (as the last look found). */
  reportingPeer(): Peer | undefined {
    return this.reporting;
  }

  /** Looks again at the app's extensions and what they do, and says once what their being here changes. */
  async check(): Promise<void> {
    const { ownId, extensions, memento, settings, log } = this.options;
    this.peers = recognizePeers(extensions(), ownId);
    const doing = this.doing();
    const reporting = reportingPeer(doing, settings().git.reportBesideAppExtension);
    this.reporting = reporting;
    this.changed.fire();
    const { sentences, said } = besideSentences({
      reporting,
      wouldReport: settings().git.reportBranchChanges !== false,
      showing: doing.find((one) => one.showsActivity)?.peer,
      said: readSaid(memento.get(STORAGE_KEYS.coexistence)),
    });
    if (reporting !== undefined)
      log.info(`Beside ${reporting.id}, which reports branch switches: this extension does not report them.`);
    if (sentences.length === 0) return;
    await memento.update(STORAGE_KEYS.coexistence, said);
    for (const { text } of sentences) log.info(text);
    const openSettings = this.options.messages.actions.openSettings(`${SECTION}.git.reportBranchChanges`);
    const message = sentences.map(({ text }) => text).join(' ');
    void this.options.messages.info(
      message,
      ...(sentences.some(({ topic }) => topic === 'branches') ? [openSettings] : []),
    );
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changed.dispose();
  }

  /** What each of the app's extensions does here, by its own settings (their defaults are its manifest's). */
  private doing(): PeerDoing[] {
    const config = vscode.workspace.getConfiguration();
    const on = (key: string): boolean => config.get<unknown>(key) !== false;
    return this.peers.map((peer) => ({
      peer,
      reportsBranches: on(peer.branchSetting),
      showsActivity: peer.activitySettings.some(on),
    }));
  }
}
