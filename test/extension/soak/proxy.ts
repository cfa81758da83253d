/**
 * A TCP proxy on the port the extension is set to, in front of the reference server: what lets the
 * soak break connections the way a crashing app or a flaky loopback does, at any point of a
 * request, which closing the server alone cannot (the in-process server answers within one tick).
 *
 * It forwards bytes as they are, except the Host header, which it points at the server's own port
 * (the server only accepts its own port there; Host is not signed). It reads just enough of each
 * request (the head and Content-Length) to know where the next one starts and which one an answer
 * belongs to (the client sends one request at a time per connection). 127.0.0.1 only.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';

const HOST = '127.0.0.1';
const HEAD_END = Buffer.from('\r\n\r\n', 'latin1');
/** A head longer than this is passed through untouched; the server refuses it anyway. */
const MAX_HEAD = 16 * 1024;

/**
 * What happens to traffic for a while: `resetRequests` resets each request before the server sees it; `dropAnswers`
 * lets the server handle it and resets instead of answering.
 */
export type ProxyMode = 'pass' | 'resetRequests' | 'dropAnswers';

interface Pair {
  readonly client: Socket;
  readonly upstream: Socket;
  /** The request line of the request being answered on this connection, e.g. `POST /entries`. */
  current: string;
}

export class FaultyProxy {
  private listener: Server | undefined;
  private readonly pairs = new Set<Pair>();
  mode: ProxyMode = 'pass';
  /** Armed by `crashAtNextAnswerTo`: called instead of forwarding that answer. */
  private crash: { readonly requestLine: string; readonly fire: () => void } | undefined;
  upstreamPort = 0;
  /** Connections reset by a fault, for the summary. */
  resets = 0;

  constructor(readonly port: number) {}

  get listening(): boolean {
    return this.listener !== undefined;
  }

  async listen(): Promise<void> {
    if (this.listener) return;
    const listener = createServer((client) => this.accept(client));
    await new Promise<void>((resolve, reject) => {
      listener.once('error', reject);
      listener.listen(this.port, HOST, () => {
        listener.off('error', reject);
        resolve();
      });
    });
    this.listener = listener;
  }

  /** Stops accepting at once (new connections are refused) and resets every open one. */
  async close(): Promise<void> {
    const listener = this.listener;
    this.listener = undefined;
    if (!listener) return;
    const closed = new Promise<void>((resolve) => listener.close(() => resolve()));
    this.resetAll();
    await closed;
  }

  /** Resets every open connection, in flight or idle; returns how many. */
  resetAll(): number {
    const count = this.pairs.size;
    for (const pair of [...this.pairs]) this.reset(pair);
    return count;
  }

  /**
   * The next answer to a request whose line starts with `requestLine` (e.g. `POST /entries`) is not
   * forwarded: this proxy stops listening and resets every connection in the same tick, as if the
   * app crashed right after it had done what was asked. Resolves true then, or false if no such
   * answer came within `ms`.
   */
  crashAtNextAnswerTo(requestLine: string, ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.crash = undefined;
        resolve(false);
      }, ms);
      this.crash = {
        requestLine,
        fire: () => {
          clearTimeout(timer);
          this.crash = undefined;
          void this.close();
          resolve(true);
        },
      };
    });
  }

  private accept(client: Socket): void {
    const upstream = connect(this.upstreamPort, HOST);
    const pair: Pair = { client, upstream, current: '' };
    this.pairs.add(pair);
    const framer = new RequestFramer(() => this.upstreamPort);
    client.on('data', (chunk: Buffer) => {
      if (this.mode === 'resetRequests') return this.reset(pair);
      const { bytes, requestLines } = framer.push(chunk);
      const last = requestLines.at(-1);
      if (last !== undefined) pair.current = last;
      if (bytes.length > 0) upstream.write(bytes);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (this.crash && pair.current.startsWith(this.crash.requestLine)) {
        this.reset(pair);
        this.crash.fire();
        return;
      }
      if (this.mode === 'dropAnswers') return this.reset(pair);
      client.write(chunk);
    });
    // A side closing cleanly (the server's keep-alive time-out, the client's pool) is passed on
    // cleanly, after what was already written; a failing server side is a reset for the client.
    upstream.on('end', () => client.end());
    client.on('end', () => upstream.end());
    upstream.on('error', () => {
      if (!client.destroyed) client.resetAndDestroy();
    });
    client.on('error', () => upstream.destroy());
    upstream.on('close', () => {
      this.pairs.delete(pair);
      client.end();
    });
    client.on('close', () => {
      this.pairs.delete(pair);
      upstream.destroy();
    });
  }

  private reset(pair: Pair): void {
    this.resets++;
    this.pairs.delete(pair);
    if (!pair.client.destroyed) pair.client.resetAndDestroy();
    pair.upstream.destroy();
  }
}

/**
 * Finds request boundaries in the client's bytes (head up to the blank line, then Content-Length
 * bytes of body) and rewrites each head's Host port. Anything it cannot frame (a chunked body, an
 * overlong head) is passed through untouched from there on.
 */
class RequestFramer {
  private pending: Buffer = Buffer.alloc(0);
  private bodyLeft = 0;
  private passThrough = false;

  constructor(private readonly upstreamPort: () => number) {}

  push(chunk: Buffer): { bytes: Buffer; requestLines: string[] } {
    if (this.passThrough) return { bytes: chunk, requestLines: [] };
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const out: Buffer[] = [];
    const requestLines: string[] = [];
    while (this.pending.length > 0) {
      if (this.bodyLeft > 0) {
        const take = Math.min(this.bodyLeft, this.pending.length);
        out.push(this.pending.subarray(0, take));
        this.pending = this.pending.subarray(take);
        this.bodyLeft -= take;
        continue;
      }
      const end = this.pending.indexOf(HEAD_END);
      if (end < 0) {
        if (this.pending.length > MAX_HEAD) this.giveUp(out);
        break;
      }
      const head = this.pending.subarray(0, end + HEAD_END.length).toString('latin1');
      this.pending = this.pending.subarray(end + HEAD_END.length);
      requestLines.push(head.slice(0, head.indexOf('\r\n')));
      out.push(Buffer.from(head.replace(/^(host:[ \t]*[^:\r\n]+):\d+/im, `$1:${this.upstreamPort()}`), 'latin1'));
      if (/^transfer-encoding:/im.test(head)) {
        this.giveUp(out);
        break;
      }
      this.bodyLeft = Number(/^content-length:[ \t]*(\d+)/im.exec(head)?.[1] ?? 0);
    }
    return { bytes: Buffer.concat(out), requestLines };
  }

  private giveUp(out: Buffer[]): void {
    out.push(this.pending);
    this.pending = Buffer.alloc(0);
    this.passThrough = true;
  }
}
