/**
 * A source of states (the session) as a part built after some of its states came sees it: the
 * part subscribes as if it had been there from the start, and `replay` hands it the current state
 * once, as if it had just changed; every change after that reaches it as it reaches the others.
 * The extension's rest is built after the first status bar text (src/extension/rest.ts), so its
 * ledger, queue and recent list would otherwise wait for the next poll to learn what runs. The
 * emitter is the caller's (VS Code's, which keeps a listener that throws from stopping the others),
 * so this stays free of VS Code and is unit-tested.
 */
import type { Disposable } from './disposalStack';

type Listener<State> = (state: State) => unknown;

export interface StateSource<State> {
  readonly state: State;
  readonly onDidChangeState: (listener: Listener<State>) => Disposable;
}

export interface Emitter<State> extends Disposable {
  readonly event: (listener: Listener<State>) => Disposable;
  fire(state: State): void;
}

/** `late` is `source` in every other respect: its getters and methods act on `source` itself. */
export function joinedLate<State, Source extends StateSource<State>>(
  source: Source,
  emitter: Emitter<State>,
): { readonly late: Source; replay(): void; dispose(): void } {
  const forwarding = source.onDidChangeState((state) => emitter.fire(state));
  const late = new Proxy(source, {
    get: (target, key) => {
      if (key === 'onDidChangeState') return emitter.event;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return {
    late,
    replay: () => emitter.fire(source.state),
    dispose: () => {
      forwarding.dispose();
      emitter.dispose();
    },
  };
}
