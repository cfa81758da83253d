/**
 * joinedLate is how the extension's rest, built after the first status bar text, sees the session:
 * the state it missed once when asked, then every change, and the session itself in all else.
 */
import assert from 'node:assert/strict';
import { joinedLate, type Emitter } from '../../../src/platform/joinedLate';

/** The least of VS Code's EventEmitter: listeners in order, each removable. */
function emitter<State>(): Emitter<State> & { readonly listening: () => number } {
  const listeners = new Set<(state: State) => unknown>();
  return {
    event: (listener) => {
      listeners.add(listener);
      return { dispose: () => listeners.delete(listener) };
    },
    fire: (state) => {
      for (const listener of [...listeners]) listener(state);
    },
    dispose: () => listeners.clear(),
    listening: () => listeners.size,
  };
}

class Source {
  private readonly changes = emitter<string>();
  readonly onDidChangeState = this.changes.event;
  private current = 'starting';
  get state(): string {
    return this.current;
  }
  show(state: string): void {
    this.current = state;
    this.changes.fire(state);
  }
  get listening(): number {
    return this.changes.listening();
  }
}

describe('joinedLate', () => {
  it('hands a late listener the current state once on replay, then every change', () => {
    const source = new Source();
    source.show('tracking');
    const joined = joinedLate(source, emitter<string>());
    const seen: string[] = [];
    joined.late.onDidChangeState((state) => seen.push(state));
    assert.deepEqual(seen, [], 'nothing before replay');
    joined.replay();
    source.show('idle');
    assert.deepEqual(seen, ['tracking', 'idle']);
  });

  it('leaves the listeners of the source itself alone: no replay reaches them', () => {
    const source = new Source();
    const early: string[] = [];
    source.onDidChangeState((state) => early.push(state));
    source.show('tracking');
    joinedLate(source, emitter<string>()).replay();
    assert.deepEqual(early, ['tracking']);
  });

  it('is the source in all else: getters read it, methods act on it', () => {
    const source = new Source();
    const { late } = joinedLate(source, emitter<string>());
    late.show('offline');
    assert.equal(source.state, 'offline');
    assert.equal(late.state, 'offline');
  });

  it('stops forwarding once disposed', () => {
    const source = new Source();
    const joined = joinedLate(source, emitter<string>());
    const seen: string[] = [];
    joined.late.onDidChangeState((state) => seen.push(state));
    assert.equal(source.listening, 1);
    joined.dispose();
    source.show('idle');
    assert.deepEqual(seen, []);
    assert.equal(source.listening, 0);
  });
});
