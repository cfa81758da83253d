/**
 * The app's own VS Code extension, recognized from its manifest. Two publishers ship it: NowDoing
 * (`NowDoing.nowdoing-vscode`, settings `nowdoing.*`) and, after the rename, Clessira (its
 * documentation names the publisher `Clessira` and the settings `clessira.*`, not the extension's
 * name). So an extension is the app's own when its publisher is one of the two and its manifest
 * declares the branch switch `<publisher>.enabled`; a setting is only ever written where its manifest
 * declares it, so a later version that renames one is left alone rather than given a key it ignores.
 */

/** The known id of the app's own extension; the Clessira publisher's is recognized by its manifest. */
export const NOWDOING_EXTENSION_ID = 'NowDoing.nowdoing-vscode';

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
