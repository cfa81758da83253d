/**
 * The parts of the extension, disposed in the reverse order of their creation (GitLens
 * `container.ts` reverses its list): a part is built on those before it, so it goes before them,
 * and the log, built first, goes last, after every part that may still write to it. VS Code
 * disposes `context.subscriptions` in the order they were pushed, which would close the log
 * first. Pure (nothing of vscode), so the order is unit-tested; `DisposableStack` of ES2025 does
 * the same but is not in the extension host's Node 20.
 */

/** What VS Code and our parts call a disposable. */
export interface Disposable {
  dispose(): unknown;
}

export class DisposalStack implements Disposable {
  private readonly parts: Disposable[] = [];
  private disposed = false;

  /** Adds a part, to be disposed before every part added earlier; returns it. */
  use<T extends Disposable>(part: T): T {
    if (this.disposed) throw new Error('DisposalStack: a part was added after the stack was disposed.');
    this.parts.push(part);
    return part;
  }

  /**
   * Disposes every part, the last added first, once. A part whose dispose throws does not keep
   * the others alive: all are disposed, then the error is thrown (several as an AggregateError).
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const errors: unknown[] = [];
    for (const part of this.parts.splice(0).reverse()) {
      try {
        part.dispose();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, 'DisposalStack: several parts failed to dispose.');
  }
}
