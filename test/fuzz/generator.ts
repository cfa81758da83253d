/**
 * Seeded generator of raw HTTP/1.1 requests for fuzzing the reference server. A case is bytes on
 * the wire rather than a request object, so that it can be malformed in every way a parser can
 * see. The same seed gives the same cases; only the port and the clock come from the runner.
 *
 * Strings here are "binary strings" (one char per byte, written as latin1), because Node hands the
 * server the request-target and header values decoded that way: signing the latin1 string signs
 * exactly what the server will verify.
 */
import { MAX_BODY_BYTES, MAX_HEADER_BYTES } from '../../src/protocol/constants';
import { signingHeaderNames, type SigningHeaderNames } from '../../src/protocol/headers';
import { signRequest, timestampFor } from '../../src/protocol/signing';
import { ENDPOINT_PATHS, ENDPOINTS, type EndpointPath } from '../../src/protocol/types';

/** mulberry32: tiny and fast, plenty to spread cases; never for secrets. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(below: number): number {
    return Math.floor(this.next() * below);
  }

  between(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[this.int(items.length)];
    if (item === undefined) throw new Error('Rng.pick needs a non-empty list.');
    return item;
  }

  weighted<T>(table: readonly (readonly [number, T])[]): T {
    const total = table.reduce((sum, [weight]) => sum + weight, 0);
    let roll = this.next() * total;
    for (const [weight, value] of table) {
      roll -= weight;
      if (roll < 0) return value;
    }
    return this.pick(table)[1];
  }

  text(length: number, alphabet: string): string {
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet.charAt(this.int(alphabet.length));
    return out;
  }

  hex(length: number): string {
    return this.text(length, '0123456789abcdef');
  }

  bytes(length: number): Buffer {
    const out = Buffer.alloc(length);
    for (let i = 0; i < length; i++) out[i] = this.int(256);
    return out;
  }
}

/** One write on the socket, after a pause; slow senders are a few writes with long pauses. */
export interface Segment {
  readonly bytes: Buffer;
  readonly delayMs: number;
}

export interface FuzzCase {
  readonly index: number;
  /** What was sent, in words, for failure messages. */
  readonly description: string;
  readonly segments: readonly Segment[];
  /** The method of every request head sent, in order: a HEAD answer has no body to read. */
  readonly methods: readonly string[];
  /** Requests that are correctly signed and not refused at step 0: the most 2xx answers allowed. */
  readonly maySucceed: number;
  /** The framing is left open on purpose, so the answer is the server timing out and closing. */
  readonly awaitClose: boolean;
  /** Send FIN after the last write, as a client that gives up would. */
  readonly halfClose: boolean;
  /** Runs in the slow lane, which may take up to a second or two per case. */
  readonly slow: boolean;
}

export interface GeneratorOptions {
  readonly seed: number;
  readonly token: string;
  readonly port: number;
}

type Framing =
  | 'auto'
  | 'none'
  | 'chunked'
  | 'cl-short'
  | 'cl-long'
  | 'cl-bad'
  | 'cl-dup'
  | 'cl-te'
  | 'te-bad'
  | 'chunked-bad'
  | 'chunked-open'
  | 'chunked-short';

/** Framings after which the server must wait for bytes that never come. */
const OPEN_FRAMINGS: ReadonlySet<Framing> = new Set(['cl-long', 'chunked-open', 'chunked-short']);

interface Draft {
  method: string;
  target: string;
  version: string;
  /** Header lines without their CRLF; any byte may be in them. */
  headers: string[];
  body: Buffer;
  framing: Framing;
  signed: boolean;
  /** Host, Origin and the browser headers pass step 0 and the method is not OPTIONS. */
  loopbackOk: boolean;
  notes: string[];
}

interface Built {
  readonly bytes: Buffer;
  readonly method: string;
  readonly maySucceed: boolean;
  readonly open: boolean;
  readonly description: string;
}

const ROUTE_METHOD: ReadonlyMap<string, string> = new Map(Object.values(ENDPOINTS).map((e) => [e.path, e.method]));
const TOKEN_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** The application takes letters and digits only; `_` and `-` are the nonce-format mutation's job. */
const NONCE_CHARS = TOKEN_CHARS;
const MAX_REPLAYS = 32;
/**
 * Headers browsers send: Chromium's for a cross-site `<img>`, and kin. Step 0 refuses a request with
 * any of Sec-Fetch-Site, Sec-Fetch-Dest or Referer; Sec-Fetch-Mode or Sec-Fetch-User alone is not a
 * browser's (Node's `fetch` sends Sec-Fetch-Mode), so a signed request with only that is served.
 */
const BROWSER_HEADERS = (port: number): string[] => [
  'Sec-Fetch-Site: cross-site',
  'Sec-Fetch-Mode: no-cors',
  'Sec-Fetch-Dest: image',
  'Sec-Fetch-User: ?1',
  'Referer: https://evil.example/',
  `Referer: http://127.0.0.1:${port}/`,
];

export class CaseGenerator {
  private readonly rng: Rng;
  private readonly names: SigningHeaderNames;
  /** Recent correctly signed requests, resent byte for byte to reach the replay check (409). */
  private readonly replays: Built[] = [];
  /** Recent nonces, signed again in another letter case: the server compares them lower-cased (409). */
  private readonly nonces: string[] = [];
  private nowMs = 0;
  private index = 0;

  constructor(private readonly options: GeneratorOptions) {
    this.rng = new Rng(options.seed);
    this.names = signingHeaderNames();
  }

  /** The next case, signed against the server clock's `nowMs`. */
  next(nowMs: number): FuzzCase {
    this.nowMs = nowMs;
    const index = this.index++;
    const kind = this.rng.weighted<() => Omit<FuzzCase, 'index'>>([
      [40, () => this.single(this.signedRequest())],
      [18, () => this.single(this.brokenAuthRequest())],
      [8, () => this.single(this.loopbackRequest())],
      [14, () => this.single(this.garbageRequest())],
      [3, () => this.replay()],
      [8, () => this.pipelined()],
      [5, () => this.incomplete()],
      [1, () => this.single(this.oversized())],
      [0.2, () => this.slowSender()],
    ]);
    return { index, ...kind() };
  }

  /** A correctly signed GET /healthcheck, to show the server still serves. */
  probe(nowMs: number): Buffer {
    this.nowMs = nowMs;
    const draft = this.draft('GET', '/healthcheck');
    this.sign(draft, 'as-sent', false);
    return this.serialize(draft).bytes;
  }

  // ---- one request ------------------------------------------------------------------------------

  private draft(method: string, target: string): Draft {
    return {
      method,
      target,
      version: 'HTTP/1.1',
      headers: [`Host: 127.0.0.1:${this.options.port}`],
      body: Buffer.alloc(0),
      framing: 'auto',
      signed: false,
      loopbackOk: true,
      notes: [],
    };
  }

  /** A real endpoint with its own method most of the time, and a body or query of any quality. */
  private endpointDraft(): Draft {
    const rng = this.rng;
    const path: EndpointPath = rng.pick(ENDPOINT_PATHS);
    const routeMethod = ROUTE_METHOD.get(path) ?? 'GET';
    const method = rng.chance(0.88) ? routeMethod : rng.pick(['GET', 'POST', 'PUT', 'DELETE', 'PATCH']);
    let target: string = path;
    const draft = this.draft(method, target);
    if (path === ENDPOINTS.search.path) {
      const query = searchQuery(rng);
      target += query.text;
      draft.notes.push(`query=${query.kind}`);
    } else if (rng.chance(0.05)) {
      target += rng.pick(['?', '?x=1', '?q=a&limit=5', '?%zz', '#frag']);
    }
    draft.target = rng.chance(0.06) ? this.oddTarget(target) : target;
    if (method === 'POST' || rng.chance(0.05)) {
      const body = bodyFor(rng, path);
      draft.body = body.bytes;
      draft.notes.push(`body=${body.kind}`);
    }
    if (rng.chance(0.12)) draft.framing = 'chunked';
    if (rng.chance(0.3)) draft.headers.push('Content-Type: application/json; charset=utf-8');
    if (rng.chance(0.05)) {
      draft.headers.push('Expect: 100-continue');
      draft.notes.push('expect-100');
    }
    if (rng.chance(0.1)) {
      const extra = this.extraHeader();
      draft.headers.push(extra);
      // A Referer is a browser's, refused at step 0 like Sec-Fetch-* (PROTOCOL.md §2).
      if (/^referer:/i.test(extra)) draft.loopbackOk = false;
    }
    if (rng.chance(0.1)) {
      draft.headers[0] = `Host: ${rng.pick(['localhost', 'LOCALHOST', 'LocalHost', '127.0.0.1'])}:${this.options.port}`;
    }
    return draft;
  }

  private signedRequest(): Built {
    const draft = this.endpointDraft();
    this.sign(
      draft,
      this.rng.weighted([
        [8, 'as-sent'],
        [1, 'lower'],
        [1, 'upper'],
      ] as const),
    );
    const built = this.serialize(draft);
    if (built.maySucceed && draft.framing === 'auto') this.remember(built);
    return built;
  }

  private brokenAuthRequest(): Built {
    const draft = this.endpointDraft();
    const mutation = this.rng.weighted<string>([
      [4, 'missing'],
      [2, 'empty-value'],
      [2, 'token-wrong'],
      [2, 'key-wrong'],
      [3, 'stale'],
      [2, 'future'],
      [3, 'timestamp-format'],
      [3, 'nonce-format'],
      [6, 'signature'],
      [2, 'duplicate'],
      [1, 'nowdoing-prefix'],
      [1, 'token-only'],
    ]);
    this.signBroken(draft, mutation);
    draft.notes.push(`auth=${mutation}`);
    return this.serialize(draft);
  }

  /** Step 0: Host, Origin, browser headers and OPTIONS, signed or not; these must never count as failures. */
  private loopbackRequest(): Built {
    const rng = this.rng;
    const draft = this.endpointDraft();
    const port = this.options.port;
    const what = rng.weighted<string>([
      [4, 'host'],
      [1, 'host-missing'],
      [1, 'host-duplicate'],
      [2, 'origin'],
      [2, 'browser'],
      [2, 'options'],
    ]);
    if (what === 'host') {
      const [value, ok] = rng.pick<readonly [string, boolean]>([
        [`127.0.0.1`, false],
        [`localhost`, false],
        [`127.0.0.1:${port + 1}`, false],
        [`127.0.0.1:0${port}`, false],
        [`evil.example:${port}`, false],
        [`127.0.0.1.nip.io:${port}`, false],
        [`[::1]:${port}`, false],
        [`127.1:${port}`, false],
        [`2130706433:${port}`, false],
        [`localhost.:${port}`, false],
        [`user@127.0.0.1:${port}`, false],
        [`127.0.0.1:${port}, evil.example`, false],
        [`127.0.0.1:${port}/x`, false],
        ['', false],
        [`  127.0.0.1:${port}\t`, true],
        [`LOCALHOST:${port}`, true],
      ]);
      draft.headers[0] = `Host: ${value}`;
      draft.loopbackOk = ok;
      draft.notes.push(`host=${JSON.stringify(value)}`);
    } else if (what === 'host-missing') {
      draft.headers.shift();
      draft.loopbackOk = false;
      draft.notes.push('host=missing');
    } else if (what === 'host-duplicate') {
      // Node keeps the first Host and drops repeats, so the first decides.
      const good = rng.chance(0.5);
      const other = `evil.example:${port}`;
      draft.headers[0] = `Host: ${good ? `127.0.0.1:${port}` : other}`;
      draft.headers.push(`Host: ${good ? other : `127.0.0.1:${port}`}`);
      draft.loopbackOk = good;
      draft.notes.push(`host=duplicate(first ${good ? 'good' : 'bad'})`);
    } else if (what === 'origin') {
      const origin = rng.pick(['http://evil.example', 'null', `http://127.0.0.1:${port}`, 'https://localhost', 'x']);
      draft.headers.push(`Origin: ${origin}`);
      draft.loopbackOk = false;
      draft.notes.push(`origin=${origin}`);
    } else if (what === 'browser') {
      // What a page's <img>, <script> or link sends: no Origin, but some of these, in any case.
      const all = BROWSER_HEADERS(port);
      const chosen = rng.chance(0.5) ? all : [rng.pick(all)];
      for (const line of chosen) draft.headers.push(rng.chance(0.2) ? line.toUpperCase() : line);
      if (chosen === all)
        draft.headers.push('Accept: image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8');
      draft.loopbackOk = !chosen.some((line) => /^(sec-fetch-site|sec-fetch-dest|referer):/i.test(line));
      draft.notes.push(`browser=${chosen.length === 1 ? (chosen[0] ?? '').split(':')[0] : 'all'}`);
    } else {
      draft.method = 'OPTIONS';
      if (rng.chance(0.3)) draft.target = '*';
      draft.headers.push('Access-Control-Request-Method: POST');
      draft.loopbackOk = false;
    }
    if (rng.chance(0.6)) this.sign(draft);
    return this.serialize(draft);
  }

  /** Bytes an HTTP parser has to refuse, or accept and pass on as something odd. */
  private garbageRequest(): Built {
    const rng = this.rng;
    const draft = this.endpointDraft();
    const what = rng.weighted<string>([
      [4, 'method'],
      [3, 'target'],
      [2, 'version'],
      [4, 'header-syntax'],
      [4, 'framing'],
      [1, 'line-endings'],
      [2, 'junk'],
      [1, 'connect-upgrade'],
    ]);
    draft.notes.push(`garbage=${what}`);
    let raw: Built | undefined;
    switch (what) {
      case 'method':
        draft.method = rng.pick([
          'get',
          'Post',
          'HEAD',
          'TRACE',
          'PROPFIND',
          'M-SEARCH',
          'QUERY',
          'G@T',
          'GET\x00',
          'G\xc3\x89T',
          'A'.repeat(rng.between(20, 2000)),
          '',
          'GET GET',
          rng.text(rng.between(1, 12), 'ABCDEFGHIJKLMNOPQRSTUVWXYZ!#$%&*+-.^_`|~'),
        ]);
        if (draft.method === 'HEAD' && rng.chance(0.5)) this.sign(draft);
        break;
      case 'target':
        draft.target = this.oddTarget(draft.target);
        if (rng.chance(0.5)) this.sign(draft);
        break;
      case 'version':
        draft.version = rng.pick([
          'HTTP/1.0',
          'HTTP/1.2',
          'HTTP/2.0',
          'HTTP/0.9',
          'http/1.1',
          'HTTP/1.1 x',
          'HTTP/11',
          '',
          'HTTP/1.',
          'HTTP/9.9',
        ]);
        if (rng.chance(0.5)) this.sign(draft);
        break;
      case 'header-syntax':
        this.sign(draft);
        draft.headers.push(
          rng.pick([
            'NoColon',
            'Space Before : colon',
            'X-Folded: a\r\n continued',
            'X-Bare-CR: a\rb',
            `X-Injected: a\n${this.names.token}: ${this.options.token}`,
            'X-Nul: a\x00b',
            'X-Ctl: a\x01\x7fb',
            'X-\xe9t\xe9: x',
            'X-High: \xff\xfe\xfd',
            ': empty-name',
            'X-Tab:\tvalue\t',
            `X-Long: ${'v'.repeat(rng.between(1000, 7000))}`,
            'Content-Length : 5',
          ]),
        );
        break;
      case 'framing':
        if (draft.body.length === 0) draft.body = Buffer.from('{"name":"Coding"}');
        draft.framing = rng.pick<Framing>(['none', 'cl-short', 'cl-bad', 'cl-dup', 'cl-te', 'te-bad', 'chunked-bad']);
        draft.notes.push(`framing=${draft.framing}`);
        if (rng.chance(0.5)) this.sign(draft);
        break;
      case 'line-endings': {
        this.sign(draft);
        const built = this.serialize(draft);
        const ending = rng.pick(['\n', '\r', '\n\r', '\r\r\n']);
        const bytes = Buffer.from(built.bytes.toString('latin1').replace(/\r\n/g, ending), 'latin1');
        // Still correctly signed: a lenient parser may take bare LF, and then a 2xx is fair.
        raw = { ...built, bytes, description: `${built.description} line-endings=${JSON.stringify(ending)}` };
        break;
      }
      case 'junk': {
        const [name, make] = rng.pick<readonly [string, () => Buffer]>([
          ['random-bytes', () => rng.bytes(rng.between(1, 600))],
          ['http2-preface', () => Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1')],
          [
            'tls-client-hello',
            () => Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03, ...rng.bytes(40)]),
          ],
          ['a-response', () => Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n', 'latin1')],
          [
            'leading-blank-lines',
            () =>
              Buffer.from(
                `\r\n\r\nGET /healthcheck HTTP/1.1\r\nHost: 127.0.0.1:${this.options.port}\r\n\r\n`,
                'latin1',
              ),
          ],
          ['spaces', () => Buffer.from(' '.repeat(rng.between(1, 100)) + '\r\n\r\n', 'latin1')],
        ]);
        raw = { bytes: make(), method: 'GET', maySucceed: false, open: false, description: `garbage=junk(${name})` };
        break;
      }
      default:
        if (rng.chance(0.5)) {
          draft.method = 'CONNECT';
          draft.target = `127.0.0.1:${this.options.port}`;
        } else {
          draft.headers.push('Connection: Upgrade', 'Upgrade: websocket', 'Sec-WebSocket-Version: 13');
          this.sign(draft);
        }
    }
    return raw ?? this.serialize(draft);
  }

  /** Past the limits: headers over 8 KiB, bodies far over 64 KiB. */
  private oversized(): Built {
    const rng = this.rng;
    const draft = this.endpointDraft();
    const what = rng.pick([
      'one-header',
      'many-headers',
      'long-target',
      'huge-body',
      'huge-chunked',
      'near-header-limit',
    ]);
    draft.notes.push(`oversized=${what}`);
    switch (what) {
      case 'one-header':
        draft.headers.push(`X-Big: ${'x'.repeat(MAX_HEADER_BYTES + rng.between(1, 4000))}`);
        break;
      case 'many-headers':
        for (let i = 0; i < rng.between(400, 1200); i++) draft.headers.push(`X-H${i}: ${rng.hex(8)}`);
        break;
      case 'long-target':
        draft.target = `/${'a'.repeat(MAX_HEADER_BYTES + rng.between(1, 4000))}`;
        break;
      case 'near-header-limit':
        draft.headers.push(`X-Big: ${'x'.repeat(MAX_HEADER_BYTES - 800 - rng.between(0, 400))}`);
        break;
      default:
        draft.method = 'POST';
        draft.target = rng.pick([ENDPOINTS.entries.path, ENDPOINTS.start.path, '/nowhere']);
        draft.body = Buffer.alloc(
          rng.pick([MAX_BODY_BYTES * 2, 1024 * 1024 + 1, 1024 * 1024 + rng.between(1, 300_000)]),
          0x20,
        );
        if (what === 'huge-chunked') draft.framing = 'chunked';
    }
    if (rng.chance(0.6)) this.sign(draft);
    return this.serialize(draft);
  }

  /**
   * Signs as a client does. `names` varies only the case of header names, which HTTP ignores; now
   * and then, unless `mayReplay` is false, an earlier nonce comes back in another letter case.
   */
  private sign(draft: Draft, names: 'as-sent' | 'lower' | 'upper' = 'as-sent', mayReplay = true): void {
    const timestamp = timestampFor(this.nowMs);
    const earlier =
      mayReplay && this.nonces.length > 0 && this.rng.chance(0.03) ? this.rng.pick(this.nonces) : undefined;
    const nonce =
      earlier !== undefined
        ? swapCase(earlier)
        : this.rng.chance(0.9)
          ? this.rng.hex(32)
          : this.rng.text(this.rng.between(16, 128), NONCE_CHARS);
    if (earlier !== undefined) draft.notes.push('nonce=earlier-in-other-case');
    this.nonces.push(nonce);
    if (this.nonces.length > MAX_REPLAYS) this.nonces.shift();
    const signature = signRequest({
      token: this.options.token,
      method: draft.method,
      target: draft.target,
      timestamp,
      nonce,
      body: draft.body,
    });
    const cased = (name: string): string =>
      names === 'lower' ? name.toLowerCase() : names === 'upper' ? name.toUpperCase() : name;
    draft.headers.push(
      `${cased(this.names.token)}: ${this.options.token}`,
      `${cased(this.names.timestamp)}: ${timestamp}`,
      `${cased(this.names.nonce)}: ${nonce}`,
      `${cased(this.names.signature)}: ${signature}`,
    );
    draft.signed = true;
  }

  /** Signing headers with exactly one thing wrong that the server has to notice. */
  private signBroken(draft: Draft, mutation: string): void {
    const rng = this.rng;
    const nowSeconds = Math.floor(this.nowMs / 1000);
    let token = this.options.token;
    let key = this.options.token;
    let timestamp = String(nowSeconds);
    let nonce = rng.hex(32);
    let signTarget = draft.target;
    let signBody: Buffer = draft.body;
    let signMethod = draft.method;
    switch (mutation) {
      case 'token-wrong':
        token = rng.pick([
          `${token}x`,
          token.toUpperCase(),
          token.slice(1),
          '',
          'x'.repeat(token.length),
          `${token}\xe9`,
        ]);
        break;
      case 'key-wrong':
        key = token = rng.text(token.length, TOKEN_CHARS);
        break;
      case 'stale':
        // The clock only moves forward, so a timestamp 61 s old is never back inside the window.
        timestamp = String(nowSeconds - rng.between(61, 86_400 * 400));
        break;
      case 'future':
        timestamp = String(nowSeconds + rng.between(120, 86_400 * 400));
        break;
      case 'timestamp-format':
        timestamp = rng.pick([
          `0${nowSeconds}`,
          `+${nowSeconds}`,
          `${nowSeconds}.0`,
          `-${nowSeconds}`,
          String(this.nowMs),
          `${nowSeconds} `,
          '1e9',
          `${nowSeconds}0000000`,
          '0x6a',
          '٣٤',
        ]);
        break;
      case 'nonce-format':
        nonce = rng.pick([
          rng.hex(15),
          rng.hex(129),
          `${rng.hex(30)}.!`,
          `${rng.hex(20)} ${rng.hex(10)}`,
          `${rng.hex(20)}\xe9`,
          `${rng.hex(16)}/`,
          `${rng.hex(20)}_${rng.hex(11)}`,
          `${rng.hex(20)}-${rng.hex(11)}`,
        ]);
        break;
      case 'signature':
        switch (rng.int(6)) {
          case 0:
            signTarget = `${draft.target}x`;
            break;
          case 1:
            signBody = Buffer.concat([draft.body, Buffer.from(' ')]);
            break;
          case 2:
            signMethod = signMethod === 'GET' ? 'POST' : 'GET';
            break;
          default:
            break;
        }
        break;
      default:
        break;
    }
    let signature = signRequest({
      token: key,
      method: signMethod,
      target: signTarget,
      timestamp,
      nonce,
      body: signBody,
    });
    if (
      mutation === 'signature' &&
      signTarget === draft.target &&
      signBody === draft.body &&
      signMethod === draft.method
    ) {
      signature = rng.pick([
        signature.toUpperCase(),
        signature.slice(1),
        `${signature}0`,
        `sha256=${signature}`,
        rng.hex(64),
        `${signature.slice(0, 63)}g`,
      ]);
    }
    const prefix = mutation === 'nowdoing-prefix' ? signingHeaderNames('NowDoing') : this.names;
    const headers: [string, string][] = [
      [prefix.token, token],
      [prefix.timestamp, timestamp],
      [prefix.nonce, nonce],
      [prefix.signature, signature],
    ];
    if (mutation === 'missing') {
      const keep = headers.filter(() => rng.chance(0.5));
      headers.length = 0;
      headers.push(...(keep.length === 4 ? keep.slice(1) : keep));
    } else if (mutation === 'empty-value') {
      const victim = rng.pick(headers);
      victim[1] = '';
    } else if (mutation === 'duplicate') {
      const victim = rng.pick(headers);
      headers.push([victim[0], rng.chance(0.5) ? victim[1] : rng.hex(victim[1].length)]);
    } else if (mutation === 'token-only') {
      headers.length = 1;
    }
    for (const [name, value] of rng.chance(0.5) ? headers : headers.reverse()) draft.headers.push(`${name}: ${value}`);
  }

  private oddTarget(base: string): string {
    const rng = this.rng;
    return rng.pick([
      `http://127.0.0.1:${this.options.port}${base}`,
      `http://evil.example${base}`,
      '*',
      '',
      '/',
      `${base}/`,
      `/${base}`,
      base.toUpperCase(),
      `${base}%00`,
      `${base}?${'%'.repeat(rng.between(1, 20))}`,
      `${base}?q=%zz%C3%28%ED%A0%80%FF`,
      `/%2e%2e${base}`,
      `/..${base}`,
      `${base}\xe9\xff`,
      `${base} x`,
      `${base}\t`,
      `/${'a'.repeat(rng.between(100, 6000))}`,
      `${base}?${'q=a&'.repeat(rng.between(10, 1000))}`,
      `${base}#${rng.hex(10)}`,
      `${base};params`,
    ]);
  }

  /** Headers a client might well send; `Expect` other than 100-continue earns a 417. */
  private extraHeader(): string {
    return this.rng.pick([
      'User-Agent: fuzz/1',
      'Accept: */*',
      'Connection: keep-alive',
      'Connection: close',
      'X-Clessira-Extra: 1',
      'Cookie: a=b',
      `Referer: http://127.0.0.1:${this.options.port}/`,
      'Expect: something-else',
    ]);
  }

  // ---- framing and bytes ------------------------------------------------------------------------

  private serialize(draft: Draft): Built {
    const rng = this.rng;
    const headers = [...draft.headers];
    const body = draft.body;
    let payload: Buffer = body;
    const framing = draft.framing;
    switch (framing) {
      case 'auto':
        if (body.length > 0 || draft.method === 'POST') headers.push(`Content-Length: ${body.length}`);
        break;
      case 'none':
        break;
      case 'chunked':
        headers.push(`Transfer-Encoding: ${rng.pick(['chunked', 'Chunked', 'CHUNKED'])}`);
        payload = this.chunked(body, true);
        break;
      case 'cl-short':
        headers.push(`Content-Length: ${rng.int(body.length)}`);
        break;
      case 'cl-long':
        headers.push(`Content-Length: ${body.length + rng.between(1, 5000)}`);
        break;
      case 'cl-bad':
        headers.push(
          `Content-Length: ${rng.pick(['abc', '-1', `${body.length} ${body.length}`, `+${body.length}`, `0x${body.length.toString(16)}`, '99999999999999999999999', '', `${body.length}.0`])}`,
        );
        break;
      case 'cl-dup':
        headers.push(`Content-Length: ${body.length}`, `Content-Length: ${body.length + 1}`);
        break;
      case 'cl-te':
        headers.push(`Content-Length: ${body.length}`, 'Transfer-Encoding: chunked');
        payload = this.chunked(body, true);
        break;
      case 'te-bad':
        headers.push(
          `Transfer-Encoding: ${rng.pick(['gzip', 'chunked, gzip', 'identity', 'chunked, chunked', 'xchunked', 'chunked;q=1', ''])}`,
        );
        break;
      case 'chunked-bad':
        headers.push('Transfer-Encoding: chunked');
        payload = Buffer.concat([
          Buffer.from(
            rng.pick([
              'zz\r\n',
              '-1\r\n',
              'ffffffffffffffffffff\r\n',
              `${body.length.toString(16)} junk\r\n`,
              `${body.length.toString(16)}\n`,
              '\r\n',
            ]),
            'latin1',
          ),
          body,
          Buffer.from(rng.pick(['\r\n0\r\n\r\n', '0\r\n\r\n', 'xx', '\r\n0\r\nX-Trailer\r\n\r\n']), 'latin1'),
        ]);
        break;
      case 'chunked-open':
        headers.push('Transfer-Encoding: chunked');
        payload = this.chunked(body, false);
        break;
      case 'chunked-short':
        headers.push('Transfer-Encoding: chunked');
        payload = Buffer.concat([
          Buffer.from(`${(body.length + rng.between(1, 999)).toString(16)}\r\n`, 'latin1'),
          body,
        ]);
        break;
    }
    const head = `${draft.method} ${draft.target} ${draft.version}`.trimEnd();
    const bytes = Buffer.concat([
      Buffer.from(`${head}\r\n${headers.map((line) => `${line}\r\n`).join('')}\r\n`, 'latin1'),
      payload,
    ]);
    const tags = [
      draft.signed ? 'signed' : 'unsigned',
      JSON.stringify(`${draft.method} ${draft.target}`.slice(0, 120)),
      ...draft.notes,
    ];
    if (framing !== 'auto') tags.push(`framing=${framing}`);
    return {
      bytes,
      method: draft.method,
      maySucceed: draft.signed && draft.loopbackOk && draft.method !== 'OPTIONS',
      open: OPEN_FRAMINGS.has(framing),
      description: tags.join(' '),
    };
  }

  private chunked(body: Buffer, terminated: boolean): Buffer {
    const rng = this.rng;
    const parts: Buffer[] = [];
    let offset = 0;
    while (offset < body.length) {
      const size = Math.min(body.length - offset, rng.chance(0.2) ? rng.between(1, 16) : rng.between(1, 70_000));
      const sizeText = rng.chance(0.5) ? size.toString(16) : size.toString(16).toUpperCase();
      const extension = rng.chance(0.05) ? ';ext=1' : '';
      parts.push(
        Buffer.from(`${sizeText}${extension}\r\n`, 'latin1'),
        body.subarray(offset, offset + size),
        Buffer.from('\r\n'),
      );
      offset += size;
    }
    if (terminated) parts.push(Buffer.from(rng.chance(0.9) ? '0\r\n\r\n' : '0\r\nX-Trailer: 1\r\n\r\n', 'latin1'));
    return Buffer.concat(parts);
  }

  private remember(built: Built): void {
    this.replays.push(built);
    if (this.replays.length > MAX_REPLAYS) this.replays.shift();
  }

  // ---- whole cases ------------------------------------------------------------------------------

  private single(built: Built): Omit<FuzzCase, 'index'> {
    return {
      description: built.description,
      segments: this.split(built.bytes),
      methods: [built.method],
      maySucceed: built.maySucceed ? 1 : 0,
      awaitClose: false,
      halfClose: false,
      slow: false,
    };
  }

  /** Writes the bytes whole or in a few pieces, so the parser also sees heads cut anywhere. */
  private split(bytes: Buffer): Segment[] {
    if (bytes.length < 2 || this.rng.chance(0.7)) return [{ bytes, delayMs: 0 }];
    const cuts = [
      ...new Set(Array.from({ length: this.rng.between(1, 4) }, () => this.rng.between(1, bytes.length - 1))),
    ].sort((a, b) => a - b);
    const segments: Segment[] = [];
    let start = 0;
    for (const cut of [...cuts, bytes.length]) {
      segments.push({ bytes: bytes.subarray(start, cut), delayMs: 0 });
      start = cut;
    }
    return segments;
  }

  private replay(): Omit<FuzzCase, 'index'> {
    const original = this.replays.length > 0 ? this.rng.pick(this.replays) : undefined;
    const bytes = original?.bytes ?? this.probe(this.nowMs);
    return {
      description: `replay of ${original?.description ?? 'a fresh healthcheck'}`,
      segments: this.split(bytes),
      methods: [original?.method ?? 'GET'],
      maySucceed: 1,
      awaitClose: false,
      halfClose: false,
      slow: false,
    };
  }

  /** Several requests in one write; a refused one in the middle must not upset the order. */
  private pipelined(): Omit<FuzzCase, 'index'> {
    const count = this.rng.between(2, 5);
    const built: Built[] = [];
    while (built.length < count) {
      const last = built.length === count - 1;
      const next = this.rng.weighted<() => Built>([
        [6, () => this.signedRequest()],
        [3, () => this.brokenAuthRequest()],
        [1, () => this.loopbackRequest()],
        [last ? 1 : 0, () => this.garbageRequest()],
      ])();
      // A HEAD answer has no body, and an open framing swallows what follows; both would blur
      // which answer belongs to which request.
      if (next.method !== 'HEAD' && !next.open) built.push(next);
    }
    return {
      description: `pipelined ${count}: ${built.map((b, i) => `[${i}] ${b.description}`).join(' ')}`,
      segments: this.split(Buffer.concat(built.map((b) => b.bytes))),
      methods: built.map((b) => b.method),
      maySucceed: built.filter((b) => b.maySucceed).length,
      awaitClose: false,
      halfClose: false,
      slow: false,
    };
  }

  /** A request that stops short; the server has to time out, or notice the FIN, and close. */
  private incomplete(): Omit<FuzzCase, 'index'> {
    const rng = this.rng;
    const draft = this.endpointDraft();
    if (rng.chance(0.5)) this.sign(draft);
    const how = rng.pick(['cut-head', 'cl-long', 'chunked-open', 'chunked-short']);
    let bytes: Buffer;
    if (how === 'cut-head') {
      const full = this.serialize(draft).bytes;
      const headEnd = full.indexOf('\r\n\r\n');
      bytes = full.subarray(0, rng.between(1, Math.max(1, headEnd + 3)));
    } else {
      if (draft.body.length === 0) draft.body = Buffer.from('{}');
      draft.method = 'POST';
      draft.framing = how as Framing;
      bytes = this.serialize(draft).bytes;
    }
    const halfClose = rng.chance(0.5);
    return {
      description: `incomplete=${how}${halfClose ? ' then FIN' : ''} ${JSON.stringify(`${draft.method} ${draft.target}`.slice(0, 80))}`,
      segments: this.split(bytes),
      methods: [draft.method],
      maySucceed: 0,
      awaitClose: true,
      halfClose,
      slow: !halfClose,
    };
  }

  /** Few and far between: each holds a connection for up to a second or two. */
  private slowSender(): Omit<FuzzCase, 'index'> {
    const rng = this.rng;
    const draft = this.endpointDraft();
    draft.framing = 'auto';
    this.sign(draft);
    const full = this.serialize(draft).bytes;
    const how = rng.pick(['idle', 'dribble-head', 'stall-head', 'stall-body', 'dribble-body', 'slow-but-in-time']);
    const headEnd = full.indexOf('\r\n\r\n') + 4;
    const segments: Segment[] = [];
    switch (how) {
      case 'idle':
        break;
      case 'dribble-head':
        for (let i = 0; i < Math.min(headEnd, 15); i++) segments.push({ bytes: full.subarray(i, i + 1), delayMs: 150 });
        break;
      case 'stall-head':
        segments.push({ bytes: full.subarray(0, rng.between(1, headEnd - 1)), delayMs: 0 });
        break;
      case 'stall-body': {
        const sent = Buffer.from(
          `POST ${ENDPOINTS.entries.path} HTTP/1.1\r\nHost: 127.0.0.1:${this.options.port}\r\nContent-Length: 100\r\n\r\n{"name":`,
          'latin1',
        );
        segments.push({ bytes: sent, delayMs: 0 });
        break;
      }
      case 'dribble-body': {
        const head = Buffer.from(
          `POST ${ENDPOINTS.entries.path} HTTP/1.1\r\nHost: 127.0.0.1:${this.options.port}\r\nContent-Length: 40\r\n\r\n`,
          'latin1',
        );
        segments.push({ bytes: head, delayMs: 0 });
        for (let i = 0; i < 10; i++) segments.push({ bytes: Buffer.from('    '), delayMs: 150 });
        break;
      }
      default:
        // Well inside the 300 ms head timeout: a slow but honest client still gets its answer.
        segments.push(
          { bytes: full.subarray(0, headEnd - 2), delayMs: 0 },
          { bytes: full.subarray(headEnd - 2), delayMs: 80 },
        );
    }
    const inTime = how === 'slow-but-in-time';
    return {
      description: `slow sender=${how} ${JSON.stringify(`${draft.method} ${draft.target}`)}`,
      segments,
      methods: [draft.method],
      maySucceed: inTime ? 1 : 0,
      awaitClose: !inTime,
      halfClose: false,
      slow: true,
    };
  }
}

// ---- bodies and queries -------------------------------------------------------------------------

type PostPath = '/activities/start' | '/activities/stop' | '/entries' | '/branch-changed';

const FIELDS: Readonly<Record<PostPath, readonly string[]>> = {
  '/activities/start': ['activityID', 'name', 'createIfMissing'],
  '/activities/stop': [],
  '/entries': ['activityID', 'name', 'createIfMissing', 'durationMinutes', 'note'],
  '/branch-changed': ['branch', 'repo', 'previousBranch', 'repoPath'],
};

/** Activities the runner seeds, so a name lookup can succeed without createIfMissing. */
export const SEED_ACTIVITIES: readonly string[] = ['Coding', 'Review', 'Meetings'];
const NAMES = [...SEED_ACTIVITIES, ' coding ', 'REVIEW', 'Deep Work', 'Café ☕', '日本語', 'a', 'Fuzzed 🎉'];
const ODD_VALUES: readonly unknown[] = [1, 0, -1, true, false, [], {}, ['x'], { name: 'x' }, 'str', 1.5];
const RAW_NUMBERS = [
  '1e309',
  '-1e309',
  '1e-400',
  '-0',
  '0',
  '1440',
  '1440.0000000001',
  '12345678901234567890123',
  '0.0000001',
  '1E3',
  '1.5',
  '90.0',
  '1441',
];
const INVALID_UTF8 = [
  [0xff],
  [0xfe, 0xff],
  [0xc0, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xe2, 0x82],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0x80],
];

interface GeneratedBody {
  readonly kind: string;
  readonly bytes: Buffer;
}

function isPostPath(path: string): path is PostPath {
  return path in FIELDS;
}

/** Lower case mostly, upper case as the application writes them now and then: both are valid. */
function uuid(rng: Rng): string {
  const hex = rng.hex(32);
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`;
  return rng.chance(0.3) ? id.toUpperCase() : id;
}

function swapCase(text: string): string {
  return text.replace(/[a-z]+|[A-Z]+/g, (run) => (run === run.toLowerCase() ? run.toUpperCase() : run.toLowerCase()));
}

function validObject(rng: Rng, path: PostPath): Record<string, unknown> {
  switch (path) {
    case '/activities/start':
      return rng.chance(0.8) ? { name: rng.pick(NAMES), createIfMissing: rng.chance(0.7) } : { activityID: uuid(rng) };
    case '/activities/stop':
      return {};
    case '/entries':
      return {
        name: rng.pick(NAMES),
        createIfMissing: rng.chance(0.7),
        // Whole minutes are valid; a fraction now and then is the 400 both SDKs would refuse.
        durationMinutes: rng.chance(0.9) ? rng.pick([1, 30, 90, 1440]) : rng.pick([0.5, 59.9, 1.5]),
        ...(rng.chance(0.5) ? { note: rng.pick(['', 'worked', 'ümlaut ✓', null]) } : {}),
      };
    case '/branch-changed':
      return {
        branch: rng.pick(['main', 'feature/x', ' spaced ', 'ünï']),
        ...(rng.chance(0.5) ? { repo: '/home/user/repo' } : {}),
        ...(rng.chance(0.5) ? { previousBranch: rng.pick(['main', null]) } : {}),
        ...(rng.chance(0.5) ? { repoPath: rng.pick(['/Users/me/src/shop', ' /home/user/repo ', null]) } : {}),
      };
  }
}

/** A JSON text with one value written raw, for numbers JSON.stringify cannot produce. */
function withRaw(object: Record<string, unknown>, field: string, raw: string): string {
  return JSON.stringify({ ...object, [field]: '\u0000raw' }).replace('"\\u0000raw"', raw);
}

function padTo(text: string, size: number): string {
  const room = size - Buffer.byteLength(text);
  return room <= 0 ? text : `{${' '.repeat(room)}${text.slice(1)}`;
}

/** A body for this path: valid, subtly wrong, or not JSON at all. */
function bodyFor(rng: Rng, path: string): GeneratedBody {
  const post: PostPath = isPostPath(path) ? path : '/entries';
  const fields = FIELDS[post].length > 0 ? FIELDS[post] : ['name'];
  const valid = validObject(rng, post);
  const field = rng.pick(fields);
  const kind = rng.weighted<string>([
    [30, 'valid'],
    [5, 'unknown-fields'],
    [12, 'wrong-type'],
    [6, 'raw-number'],
    [3, 'nan-string'],
    [6, 'long-string'],
    [3, 'blank-string'],
    [5, 'proto'],
    [5, 'not-object'],
    [8, 'invalid-json'],
    [5, 'invalid-utf8'],
    [2, 'lone-surrogate'],
    [2, 'deep'],
    [2, 'duplicate-keys'],
    [4, 'near-64k'],
    [2, 'over-64k'],
    [1, 'bom'],
    [3, 'empty'],
    [3, 'random-bytes'],
  ]);
  const text = (value: string): GeneratedBody => ({ kind, bytes: Buffer.from(value, 'utf8') });
  switch (kind) {
    case 'valid':
      return text(JSON.stringify(valid));
    case 'unknown-fields':
      return text(JSON.stringify({ ...valid, extra: 1, nested: { a: [1, 2] }, [rng.hex(6)]: null }));
    case 'wrong-type': {
      const value = rng.pick(ODD_VALUES);
      return {
        kind: `wrong-type(${field}=${JSON.stringify(value)})`,
        bytes: Buffer.from(JSON.stringify({ ...valid, [field]: value })),
      };
    }
    case 'raw-number': {
      const raw = rng.pick(RAW_NUMBERS);
      const target = post === '/entries' && rng.chance(0.7) ? 'durationMinutes' : field;
      return { kind: `raw-number(${target}=${raw})`, bytes: Buffer.from(withRaw(valid, target, raw)) };
    }
    case 'nan-string':
      return text(
        JSON.stringify({
          ...valid,
          [post === '/entries' ? 'durationMinutes' : field]: rng.pick([
            'NaN',
            'Infinity',
            '-Infinity',
            '1e3',
            '0x10',
            '',
          ]),
        }),
      );
    case 'long-string': {
      // Each limit exactly, and one past it, in characters that take more than one UTF-16 unit.
      const limit = rng.pick([200, 201, 255, 256, 1024, 1025, 2000, 2001, 4096, 4097, 5000]);
      const unit = rng.pick(['a', 'é', '😀', ' ']);
      const target = rng.pick(['name', 'note', 'branch', 'repo', 'previousBranch', 'repoPath', field]);
      return {
        kind: `long-string(${target}=${JSON.stringify(unit)}x${limit})`,
        bytes: Buffer.from(JSON.stringify({ ...valid, [target]: `x${unit.repeat(limit - 1)}` })),
      };
    }
    case 'blank-string':
      return text(JSON.stringify({ ...valid, [field]: rng.pick(['', '   ', '\t\n', '\u00a0', '\u200b']) }));
    case 'proto':
      return text(
        rng.pick([
          `{"__proto__":{"createIfMissing":true},${JSON.stringify(valid).slice(1)}`,
          `{"constructor":{"prototype":{"polluted":1}},${JSON.stringify(valid).slice(1)}`,
          `{"meta":{"deep":[{"__proto__":null}]},${JSON.stringify(valid).slice(1)}`,
          `{"prototype":1,${JSON.stringify(valid).slice(1)}`,
          `{"__proto__":[]}`,
          `{"name":{"constructor":"x"}}`,
        ]),
      );
    case 'not-object':
      return text(rng.pick(['[]', `[${JSON.stringify(valid)}]`, '"x"', '42', 'null', 'true', '{}', '[{}]', '""']));
    case 'invalid-json': {
      const json = JSON.stringify(valid);
      return text(
        rng.pick([
          json.slice(0, rng.int(json.length)),
          `${json}}`,
          `${json}x`,
          `${json.slice(0, -1)},}`,
          "{'name':'Coding'}",
          '{name:"Coding"}',
          'NaN',
          '{"a":01}',
          `//c\n${json}`,
          '{"a":"\\x41"}',
          '{"a":"\n"}',
          '{"a" 1}',
          `${json}${json}`,
        ]),
      );
    }
    case 'invalid-utf8': {
      const json = JSON.stringify({ ...valid, [field]: 'ab' });
      const at = json.indexOf('"ab"') + 2;
      return {
        kind,
        bytes: Buffer.concat([
          Buffer.from(json.slice(0, at)),
          Buffer.from(rng.pick(INVALID_UTF8)),
          Buffer.from(json.slice(at)),
        ]),
      };
    }
    case 'lone-surrogate':
      return text(
        withRaw(valid, rng.pick(['name', 'note', 'branch', field]), rng.pick(['"\\ud800"', '"x\\udfff"', '"\\ud83d"'])),
      );
    case 'deep': {
      const depth = rng.between(100, 30_000);
      const open = rng.chance(0.5) ? '[' : '{"a":';
      const close = open === '[' ? ']' : '}';
      return {
        kind: `deep(${depth})`,
        bytes: Buffer.from(withRaw(valid, 'deep', `${open.repeat(depth)}1${close.repeat(depth)}`)),
      };
    }
    case 'duplicate-keys': {
      const json = JSON.stringify(valid);
      return text(`{${JSON.stringify(field)}:${JSON.stringify(rng.pick(ODD_VALUES))},${json.slice(1)}`);
    }
    case 'near-64k':
      return {
        kind: 'near-64k',
        bytes: Buffer.from(padTo(JSON.stringify(valid), MAX_BODY_BYTES + rng.pick([-2000, -1, 0, 1, 2]))),
      };
    case 'over-64k':
      return text(padTo(JSON.stringify(valid), MAX_BODY_BYTES + rng.between(2, 200_000)));
    case 'bom':
      return { kind, bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(valid))]) };
    case 'empty':
      return { kind, bytes: Buffer.alloc(0) };
    default:
      return { kind, bytes: rng.bytes(rng.between(1, 2000)) };
  }
}

interface GeneratedQuery {
  readonly kind: string;
  /** With its leading `?`, or empty. */
  readonly text: string;
}

/** Search queries: q and limit right, wrong, repeated, missing, or percent-garbled. */
function searchQuery(rng: Rng): GeneratedQuery {
  const q = rng.weighted<string>([
    [5, `q=${encodeURIComponent(rng.pick(NAMES).slice(0, rng.between(0, 4)))}`],
    [2, 'q='],
    [2, ''],
    [1, 'q=a&q=b'],
    [1, `q=${'a'.repeat(rng.pick([200, 201, 1000]))}`],
    [1, `q=${'%F0%9F%98%80'.repeat(rng.pick([200, 201]))}`],
    [2, rng.pick(['q=%zz', 'q=%', 'q=%C3%28', 'q=%ED%A0%80', 'q=%FF%FE', 'q=a+b', 'q=%00', 'q', 'Q=x', 'q=\xe9'])],
  ]);
  const limit = rng.weighted<string>([
    [5, ''],
    [3, `limit=${rng.between(1, 100)}`],
    [
      2,
      `limit=${rng.pick(['0', '101', '-1', 'abc', '1e2', '10000', '', '05', ' 5', '5.0', '%35', '99999999999999999999', '1&limit=2'])}`,
    ],
  ]);
  const parts = [q, limit].filter((part) => part !== '');
  if (rng.chance(0.2)) parts.reverse();
  if (rng.chance(0.1)) parts.push(`${rng.hex(4)}=${rng.hex(4)}`);
  const text = parts.length === 0 && rng.chance(0.5) ? '' : `?${parts.join('&')}`;
  return { kind: `${q.slice(0, 20) || 'no-q'}${limit ? `&${limit}` : ''}`, text };
}
