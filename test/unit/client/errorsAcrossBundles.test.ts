/**
 * An error of the transport crosses a bundle boundary: dist/transport.js, loaded on the first
 * request, has its own copy of src/client/errors.ts, apart from the activation bundle's. This
 * bundles the activation side's client and `classify` as esbuild.mjs bundles the extension, puts
 * the real dist/transport.js beside it, makes the client fail against a port nobody listens on,
 * and checks that the activation side's classes and `classify` read the transport's error right.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import type { ServiceClient, ServiceClientOptions } from '../../../src/client';
import type { classify as classifyFunction } from '../../../src/tracker/model/classify';

const repoRoot = join(__dirname, '..', '..', '..', '..');

interface ActivationSide {
  readonly ServiceClient: new (options: ServiceClientOptions) => ServiceClient;
  readonly ServiceError: abstract new (...args: never[]) => Error;
  readonly ConnectionError: abstract new (...args: never[]) => Error;
  readonly AuthenticationError: abstract new (...args: never[]) => Error;
  readonly classify: typeof classifyFunction;
}

/** A loopback port nobody listens on: one the system gave and took back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  assert.ok(address !== null && typeof address === 'object');
  return address.port;
}

describe('client errors across the activation bundle and the lazy transport bundle', function () {
  this.timeout(60_000);
  let folder: string;
  let side: ActivationSide;

  before(async () => {
    folder = mkdtempSync(join(tmpdir(), 'tt-bundles-'));
    await esbuild.build({
      stdin: {
        contents:
          "export { ServiceClient, ServiceError, ConnectionError, AuthenticationError } from './src/client'; export { classify } from './src/tracker/model/classify';",
        resolveDir: repoRoot,
        loader: 'ts',
      },
      outfile: join(folder, 'activation.js'),
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      minify: true,
      logLevel: 'warning',
    });
    copyFileSync(join(repoRoot, 'dist', 'transport.js'), join(folder, 'transport.js'));
    side = createRequire(__filename)(join(folder, 'activation.js')) as ActivationSide;
  });

  after(() => rmSync(folder, { recursive: true, force: true }));

  it("classifies the transport bundle's ConnectionError as offline on the activation side, by its brand and code", async () => {
    const client = new side.ServiceClient({
      token: 'bundles-token',
      port: await closedPort(),
      headerPrefix: 'Clessira',
    });
    try {
      const error: unknown = await client.healthcheck().then(
        () => assert.fail('nothing listens there'),
        (failure: unknown) => failure,
      );
      assert.ok(error instanceof Error);
      assert.notEqual(error.constructor, side.ConnectionError, "made by the transport bundle's own class");
      assert.equal(error instanceof side.ConnectionError, true);
      assert.equal(error instanceof side.ServiceError, true);
      assert.equal(error instanceof side.AuthenticationError, false);
      assert.deepEqual(side.classify(error), { kind: 'offline', message: error.message });
      assert.equal((error as { code?: unknown }).code, 'CONNECTION');
    } finally {
      await client.close();
    }
  });

  it('says which file is missing when the transport bundle is not beside it, and sends nothing', async () => {
    const alone = join(folder, 'alone');
    mkdirSync(alone);
    copyFileSync(join(folder, 'activation.js'), join(alone, 'activation.js'));
    const aloneSide = createRequire(__filename)(join(alone, 'activation.js')) as ActivationSide;
    let connections = 0;
    const listener = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const { port } = listener.address() as AddressInfo;
    const client = new aloneSide.ServiceClient({ token: 'bundles-token', port, headerPrefix: 'Clessira' });
    try {
      const error: unknown = await client.healthcheck().then(
        () => assert.fail('no transport, no request'),
        (failure: unknown) => failure,
      );
      const failure = aloneSide.classify(error);
      assert.equal(failure.kind, 'unexpected');
      assert.match(
        failure.message,
        /^The client's transport \(\.\/transport\.js beside .*activation\.js\) could not be loaded: .*Reinstall the extension\.$/s,
      );
      assert.equal(connections, 0, 'nothing connected');
    } finally {
      await client.close();
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    }
  });

  it('fails after close as a closed pool does (sent: false), even when the transport was never loaded', async () => {
    const client = new side.ServiceClient({
      token: 'bundles-token',
      port: await closedPort(),
      headerPrefix: 'Clessira',
    });
    await client.close();
    const error: unknown = await client.healthcheck().then(
      () => assert.fail('a closed client sends nothing'),
      (failure: unknown) => failure,
    );
    assert.deepEqual(side.classify(error), { kind: 'offline', message: 'This client was closed; create a new one.' });
  });
});
