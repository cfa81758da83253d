/**
 * The app's own VS Code extension, recognized from its manifest. Two publishers ship it: NowDoing
 * (`NowDoing.nowdoing-vscode`, settings `nowdoing.*`) and, after the rename, Clessira (its
 * documentation names the publisher `Clessira` and the settings `clessira.*`). An extension is the
 * app's own when its publisher is one of the two and its manifest declares the branch switch
 * `<publisher>.enabled`. Its settings are the user's and its own: read to know what it does, never
 * written.
 */
import * as l10n from '@vscode/l10n';

/** Publishers of the app's own extension, lower case (VS Code compares ids without case). */
const PEER_PUBLISHERS = ['nowdoing', 'clessira'] as const;

/** An installed, enabled extension as VS Code lists it: its id and its package.json. */
export interface InstalledExtension {
  readonly id: string;
  readonly packageJSON: unknown;
}

/** The app's own extension, and the settings of its own that say what it does. */
export interface Peer {
  readonly id: string;
  /** Its switch for branch-change reports alone (its status bar and commands stay). */
  readonly branchSetting: string;
  /** Its switches for the current activity's status bar items (name, elapsed time): those it declares. */
  readonly activitySettings: readonly string[];
}

/** What the app's own extension does in this window, by its own settings. */
export interface PeerDoing {
  readonly peer: Peer;
  readonly reportsBranches: boolean;
  readonly showsActivity: boolean;
}

/** What is said once beside the app's own extension, each by the peer it was said about. */
export type Topic = 'branches' | 'statusBar';
export type Said = Partial<Record<Topic, string>>;

/** Finds the app's own extensions among `installed`; never `ownId`, the id of this extension. */
export function recognizePeers(installed: readonly InstalledExtension[], ownId: string): Peer[] {
  const peers: Peer[] = [];
  for (const extension of installed) {
    if (extension.id.toLowerCase() === ownId.toLowerCase()) continue;
    const peer = recognizePeer(extension);
    if (peer !== undefined) peers.push(peer);
  }
  return peers.sort((a, b) => a.id.localeCompare(b.id));
}

/**
 * The app's extension that reports branch switches here, so that this one does not (the app would
 * open its prompt twice a switch); none when the user's own `reportBranchChanges` is `always`.
 */
export function reportingPeer(doing: readonly PeerDoing[], userSaysAlways: boolean): Peer | undefined {
  return userSaysAlways ? undefined : doing.find((one) => one.reportsBranches)?.peer;
}

/**
 * What to say now, once per topic and peer: that the other reports branch switches (while this one
 * would), and that both show the activity in the status bar, with how to hide either item.
 */
export function besideSentences(facts: {
  readonly reporting: Peer | undefined;
  readonly wouldReport: boolean;
  readonly showing: Peer | undefined;
  readonly said: Said;
}): { readonly sentences: readonly { readonly topic: Topic; readonly text: string }[]; readonly said: Said } {
  const { reporting, showing } = facts;
  const sentences: { topic: Topic; text: string }[] = [];
  let said = facts.said;
  if (reporting !== undefined && facts.wouldReport && said.branches !== reporting.id) {
    const text = [
      l10n.t(
        "The app's own extension ({0}) reports branch switches in this window, so this one does not: the app asks once per switch.",
        reporting.id,
      ),
      l10n.t('To have both report, set Report Branch Changes to "always".'),
    ].join(' ');
    sentences.push({ topic: 'branches', text });
    said = { ...said, branches: reporting.id };
  }
  if (showing !== undefined && said.statusBar !== showing.id) {
    const text = [
      l10n.t("The app's own extension ({0}) shows the running activity in the status bar too.", showing.id),
      l10n.t('To hide either item, right-click the status bar and uncheck it.'),
    ].join(' ');
    sentences.push({ topic: 'statusBar', text });
    said = { ...said, statusBar: showing.id };
  }
  return { sentences, said };
}

/** What globalState holds, read as far as it has the shape written; anything else is nothing said. */
export function readSaid(value: unknown): Said {
  if (typeof value !== 'object' || value === null) return {};
  const { branches, statusBar } = value as Record<string, unknown>;
  return {
    ...(typeof branches === 'string' ? { branches } : {}),
    ...(typeof statusBar === 'string' ? { statusBar } : {}),
  };
}

function recognizePeer(extension: InstalledExtension): Peer | undefined {
  const publisher = extension.id.split('.')[0]?.toLowerCase() ?? '';
  const section = PEER_PUBLISHERS.find((known) => known === publisher);
  if (section === undefined) return undefined;
  const declared = declaredSettings(extension.packageJSON);
  const branchSetting = `${section}.enabled`;
  if (!declared.has(branchSetting)) return undefined;
  const activitySettings = ['showCurrentActivity', 'showElapsedTime']
    .map((name) => `${section}.${name}`)
    .filter((key) => declared.has(key));
  return { id: extension.id, branchSetting, activitySettings };
}

/** The setting keys a manifest contributes (`contributes.configuration`, an object or a list of them). */
function declaredSettings(manifest: unknown): Set<string> {
  const contributes = field(manifest, 'contributes');
  const configuration = field(contributes, 'configuration');
  const blocks = Array.isArray(configuration) ? (configuration as unknown[]) : [configuration];
  const keys = new Set<string>();
  for (const block of blocks) {
    const properties = field(block, 'properties');
    if (typeof properties === 'object' && properties !== null) for (const key of Object.keys(properties)) keys.add(key);
  }
  return keys;
}

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}
