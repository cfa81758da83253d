/**
 * A part built on first use, once: what the activation bundle holds of the core (extension.ts), and
 * the core of the rest (core.ts).
 * A failure is kept and thrown again, never retried: a core that threw halfway through its start
 * has made some of its parts (a log channel, watchers), and a second start would make them twice.
 * Kept apart from VS Code so that this is unit-tested.
 */
export class LoadOnce<Part> {
  #part: Part | undefined;
  #failure: { readonly error: unknown } | undefined;

  constructor(private readonly build: () => Part) {}

  /** The part if it is built; undefined before (or after a failure), without building it. */
  get loaded(): Part | undefined {
    return this.#part;
  }

  /** The part, built now if it is not yet; the first failure, thrown again on every call after it. */
  get(): Part {
    if (this.#failure !== undefined) throw this.#failure.error;
    if (this.#part !== undefined) return this.#part;
    try {
      this.#part = this.build();
      return this.#part;
    } catch (error) {
      this.#failure = { error };
      throw error;
    }
  }
}

/**
 * An object whose properties are read from `target()` at each read, so that what it forwards to
 * is built only when someone reads it. `then` and symbol keys read as missing without calling
 * `target`: VS Code hands what `activate` returns to Promise.resolve, which looks for `then`, and
 * util.inspect and the like look for symbols; neither may build the part behind it.
 */
export function forwardOnRead<Shape extends object>(target: () => Shape): Shape {
  const passive = (key: string | symbol): key is symbol | 'then' => typeof key === 'symbol' || key === 'then';
  return new Proxy({} as Shape, {
    get: (_empty, key) => (passive(key) ? undefined : (Reflect.get(target(), key) as unknown)),
    has: (_empty, key) => !passive(key) && Reflect.has(target(), key),
  });
}
