/**
 * Keeps the Undo of the latest linked start while it stands (src/tracker/links/linkUndo.ts): each
 * state the session shows may end it, another link acting or Undo itself ends it. In memory only:
 * a reload forgets it.
 */
import * as vscode from 'vscode';
import { undoAfter, type LinkUndo } from '../../tracker/links/linkUndo';
import type { Session } from '../session';

export class UndoKeeper implements vscode.Disposable {
  private kept: LinkUndo | undefined;
  private readonly changed = new vscode.EventEmitter<LinkUndo | undefined>();
  /** Fires when Undo becomes possible or ends: the status bar's tooltip follows it. */
  readonly onDidChange = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(session: Pick<Session, 'onDidChangeState'>) {
    this.subscription = session.onDidChangeState((state) => {
      if (this.kept !== undefined) this.set(undoAfter(this.kept, state));
    });
  }

  get current(): LinkUndo | undefined {
    return this.kept;
  }

  set(undo: LinkUndo | undefined): void {
    if (undo === this.kept) return;
    const ended = undo === undefined || this.kept === undefined || undo.started !== this.kept.started;
    this.kept = undo;
    // Only a start or an end changes what the user sees; the first answer that shows the start does not.
    if (ended) this.changed.fire(undo);
  }

  /** Undo is under way: a second one finds nothing to take back. */
  take(): LinkUndo | undefined {
    const undo = this.kept;
    this.set(undefined);
    return undo;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
