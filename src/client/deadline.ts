/**
 * The deadline of one call (`timeoutMs`): it passes once, and every copy the call sends stops
 * then. undici takes it as its `signal` in the shape it also accepts, an EventEmitter that emits
 * `abort`, with `aborted` and `reason`. An AbortSignal there (AbortSignal.timeout, as first
 * written) cost about 25 µs a call in Node 20 (creating it, and undici's listener on it): the
 * client's throughput against a bare server fell by a fifth (`npm run bench`, client; see
 * docs/PERFORMANCE.md), where this costs about 1 µs. A caller's own AbortSignal is joined to it
 * with AbortSignal.any, through `signal`.
 */
import { EventEmitter } from 'node:events';
import { later } from '../platform/timers';

export class Deadline extends EventEmitter {
  aborted = false;
  reason: DOMException | undefined;
  readonly #timer: NodeJS.Timeout;
  #controller: AbortController | undefined;

  constructor(readonly ms: number) {
    super();
    // Unreferenced, as AbortSignal.timeout's: a pending deadline alone keeps no process alive.
    this.#timer = later(() => this.#pass(), ms).unref();
  }

  /** The same deadline as an AbortSignal, made only when asked (to join a caller's signal). */
  get signal(): AbortSignal {
    this.#controller ??= new AbortController();
    if (this.aborted) this.#controller.abort(this.reason);
    return this.#controller.signal;
  }

  /** Call once nothing runs under this deadline any more. */
  clear(): void {
    clearTimeout(this.#timer);
  }

  #pass(): void {
    this.aborted = true;
    this.reason = new DOMException(`The call took longer than ${this.ms} ms.`, 'TimeoutError');
    this.#controller?.abort(this.reason);
    this.emit('abort');
  }
}
