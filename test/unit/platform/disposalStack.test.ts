/** The extension's parts go in the reverse order of their creation, so the log, created first, goes last. */
import assert from 'node:assert/strict';
import { DisposalStack, type Disposable } from '../../../src/platform/disposalStack';

/** A part that writes its name into `disposed` when disposed, and throws `error` if given. */
function part(name: string, disposed: string[], error?: Error): Disposable & { readonly name: string } {
  return {
    name,
    dispose: () => {
      disposed.push(name);
      if (error) throw error;
    },
  };
}

describe('platform/disposalStack', () => {
  it('disposes the last part added first, and the first (the log) last', () => {
    const disposed: string[] = [];
    const stack = new DisposalStack();
    for (const name of ['log', 'session', 'queue', 'statusBar', 'commands']) stack.use(part(name, disposed));
    stack.dispose();
    assert.deepEqual(disposed, ['commands', 'statusBar', 'queue', 'session', 'log']);
  });

  it('returns the part it was given, so a part is created and added in one line', () => {
    const stack = new DisposalStack();
    const log = part('log', []);
    assert.equal(stack.use(log), log);
  });

  it('disposes each part once, however often it is disposed itself', () => {
    const disposed: string[] = [];
    const stack = new DisposalStack();
    stack.use(part('log', disposed));
    stack.dispose();
    stack.dispose();
    assert.deepEqual(disposed, ['log']);
    assert.throws(() => stack.use(part('late', disposed)), /added after the stack was disposed/);
  });

  it('disposes every part when one throws, then throws its error', () => {
    const disposed: string[] = [];
    const stack = new DisposalStack();
    const failure = new Error('statusBar broke');
    stack.use(part('log', disposed));
    stack.use(part('statusBar', disposed, failure));
    stack.use(part('commands', disposed));
    assert.throws(
      () => stack.dispose(),
      (error) => error === failure,
    );
    assert.deepEqual(disposed, ['commands', 'statusBar', 'log']);
  });

  it('throws every error, as one AggregateError, when several parts throw', () => {
    const stack = new DisposalStack();
    const first = new Error('first');
    const second = new Error('second');
    stack.use(part('a', [], first));
    stack.use(part('b', [], second));
    assert.throws(
      () => stack.dispose(),
      (error) =>
        error instanceof AggregateError &&
        error.errors.length === 2 &&
        error.errors[0] === second &&
        error.errors[1] === first,
    );
  });
});
