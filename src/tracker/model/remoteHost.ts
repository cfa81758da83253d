/**
 * Whether the extension may talk to the app from where it runs. In a remote window (SSH, a dev
 * container, WSL, code-server) the workspace-side extension host runs on the remote machine:
 * 127.0.0.1 and every socket and capability file there are the remote's, so a token sent from
 * there goes to whatever listens on that machine, not to the user's app. So from that host
 * nothing is sent, unless the user says in their own settings that the remote machine is theirs
 * (`timeTracker.remote.allowWorkspaceHost`, application-scoped: no repository can set it).
 * Pure, so every combination is unit-tested without an editor.
 */

/** Which extension host runs the extension: VS Code's ExtensionKind, by name. */
export type ExtensionSide = 'ui' | 'workspace';

export interface HostFacts {
  /** `vscode.env.remoteName`: undefined in a local window, `ssh-remote`, `dev-container`, `wsl`… in a remote one. */
  readonly remoteName: string | undefined;
  readonly side: ExtensionSide;
  /** The user's own `timeTracker.remote.allowWorkspaceHost`. */
  readonly optedIn: boolean;
}

export type HostDecision =
  /** A local window, or the local (UI) side of a remote one, or the user's own opt-in. */
  | { readonly allowed: true; readonly why: 'localWindow' | 'localSide' | 'optedIn' }
  /** The remote machine's extension host, without the user's opt-in: nothing is sent. */
  | { readonly allowed: false; readonly why: 'remoteWorkspaceHost' };

export function decideHost({ remoteName, side, optedIn }: HostFacts): HostDecision {
  // An empty name is no name: VS Code leaves it undefined in a local window.
  if (remoteName === undefined || remoteName === '') return { allowed: true, why: 'localWindow' };
  if (side === 'ui') return { allowed: true, why: 'localSide' };
  return optedIn ? { allowed: true, why: 'optedIn' } : { allowed: false, why: 'remoteWorkspaceHost' };
}

/** The log's line for a decision in a remote window, in English; undefined in a local window. */
export function describeHostForLog(decision: HostDecision, remoteName: string | undefined): string | undefined {
  switch (decision.why) {
    case 'localWindow':
      return undefined;
    case 'localSide':
      return `Remote window (${remoteName ?? '?'}): the extension runs on this computer's side, where the app is.`;
    case 'optedIn':
      return (
        `Remote window (${remoteName ?? '?'}): the extension runs on the remote machine and talks to the app there, ` +
        "because timeTracker.remote.allowWorkspaceHost is on in the user's settings; " +
        'the token goes to whatever listens on that machine.'
      );
    case 'remoteWorkspaceHost':
      return (
        `Remote window (${remoteName ?? '?'}): the extension runs on the remote machine, ` +
        "where 127.0.0.1 and the app's files are that machine's, so it sends nothing. " +
        `Install it locally, or set "remote.extensionKind" in the user's settings, to use it here.`
      );
  }
}
