/**
 * Where this extension host runs, as the pure decision of src/tracker/model/remoteHost.ts reads
 * it, and what the user is told when it may send nothing from there: the status bar's state, and
 * one message, each time the window comes to it, with the way to run the extension on their side.
 */
import * as vscode from 'vscode';
import { decideHost, describeHostForLog, type HostDecision } from '../tracker/model/remoteHost';
import { remoteHostAdvice } from '../tracker/advice/advice';
import type { Messages } from './messages';
import type { Session } from './session';
import type { Log } from './oneLineLog';

/** The decision for this host now: its place never changes without a restart, the user's opt-in may. */
export function hostDecider(extension: vscode.Extension<unknown>, optedIn: () => boolean): () => HostDecision {
  const remoteName = vscode.env.remoteName;
  const side = extension.extensionKind === vscode.ExtensionKind.UI ? 'ui' : 'workspace';
  return () => decideHost({ remoteName, side, optedIn: optedIn() });
}

/** Logs the decision (once at start, and whenever the opt-in changes it); nothing in a local window. */
export function logHostDecision(log: Log, decision: HostDecision): void {
  const line = describeHostForLog(decision, vscode.env.remoteName);
  if (line === undefined) return;
  if (decision.why === 'localSide') log.info(line);
  else log.warn(line);
}

/** The one message as the session comes to the remote machine's state; none while it stays there. */
export function sayWhenRemoteHost(session: Session, messages: Messages): vscode.Disposable {
  let there = false;
  return session.onDidChangeState((state) => {
    const was = there;
    there = state.kind === 'remoteHost';
    if (there && !was) void messages.advise(remoteHostAdvice());
  });
}
