import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// dist/client.js is what scripts use: check the built bundle itself, not the sources.
const bundlePath = join(__dirname, '..', '..', '..', '..', 'dist', 'client.js');

describe('dist/client.js', () => {
  const bundle = createRequire(__filename)(bundlePath) as Record<string, unknown>;

  it('exports the client, the signing function and every error class', () => {
    for (const name of [
      'ServiceClient',
      'signRequest',
      'ServiceError',
      'ValidationError',
      'AuthenticationError',
      'NotFoundError',
      'ReplayError',
      'UnavailableError',
      'HttpError',
      'ConnectionError',
      'ConfigurationError',
      'AnswerLostError',
    ]) {
      assert.equal(typeof bundle[name], 'function', name);
    }
  });

  it('signs the published test vector', () => {
    const signRequest = bundle['signRequest'] as (input: Record<string, string>) => string;
    const signature = signRequest({
      token: 'test-token',
      method: 'GET',
      target: '/status',
      timestamp: '1764000000',
      nonce: '00000000000000000000000000000000',
    });
    assert.equal(signature, '82bc8fdfd0c6e8d1b7399fed51eed6223fd73d429412be850de5b06784ddda1d');
  });

  it('keeps its errors under one base class', () => {
    const ServiceError = bundle['ServiceError'] as new (...args: unknown[]) => Error;
    const ConnectionError = bundle['ConnectionError'] as new (
      message: string,
      sent: boolean,
    ) => Error & { sent: boolean };
    const error = new ConnectionError('x', true);
    assert.ok(error instanceof ServiceError);
    assert.equal(error.sent, true);
  });

  it('loads no HTTP/2: its transport is node:http, HTTP/1.1 only (node:http2 is a megabyte of heap in plain Node)', () => {
    const load = `require(${JSON.stringify(bundlePath)}); console.log(process.moduleLoadList.includes('NativeModule http2'))`;
    const loaded = spawnSync(process.execPath, ['-e', load], { encoding: 'utf8' });
    assert.equal(loaded.status, 0, loaded.stderr);
    assert.equal(loaded.stdout.trim(), 'false', 'requiring dist/client.js loaded node:http2');
  });

  it('is one file: alone in a folder, its client still sends (the transport is bundled in, not loaded from beside it)', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'tt-client-alone-'));
    try {
      copyFileSync(bundlePath, join(folder, 'client.js'));
      const alone = createRequire(__filename)(join(folder, 'client.js')) as {
        ServiceClient: new (options: object) => { healthcheck(): Promise<unknown>; close(): Promise<void> };
      };
      // A port the system gave and took back: refused, so the client did try to connect.
      const server = createServer();
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      await new Promise<void>((resolve) => server.close(() => resolve()));
      const client = new alone.ServiceClient({ token: 'alone-token', port, headerPrefix: 'Clessira' });
      const failure = (await client.healthcheck().then(
        () => undefined,
        (error: unknown) => error,
      )) as { code?: unknown; sent?: unknown } | undefined;
      await client.close();
      assert.equal(failure?.code, 'CONNECTION');
      assert.equal(failure.sent, false);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
