/**
 * The request log alone (src/extension/requestLog.ts) over a recording log, fed by a real client
 * of the reference server: a line a request at debug level, an answered one with its status and a
 * refused one too, nothing at info, and never the token.
 */
import * as assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { ServiceClient } from '../../../../src/client';
import { logRequest } from '../../../../src/extension/requestLog';
import { ENDPOINTS } from '../../../../src/protocol/types';
import { RecordingLog } from './fakes';
import { useReferenceApp } from './sessionFakes';

const TOKEN = 'request-log-part-token-6a1c';

describe('parts: requestLog', function () {
  this.timeout(20_000);
  const app = useReferenceApp({ token: TOKEN });
  let log: RecordingLog;

  const clientWith = (token: string): ServiceClient =>
    new ServiceClient({
      token,
      port: app.port,
      headerPrefix: 'Clessira',
      onRequest: (record) => logRequest(log, record),
    });

  beforeEach(() => {
    log = new RecordingLog();
  });

  it('writes each request as one debug line: method, path, status and time', async () => {
    await clientWith(TOKEN).getStatus();

    assert.deepEqual(
      log.lines.map((line) => line.level),
      ['debug'],
      log.toString(),
    );
    assert.match(log.at('debug').join('\n'), new RegExp(`^GET ${ENDPOINTS.status.path} 200 [\\d.]+ ms$`));
  });

  it('writes a refused request at debug level too, and never the token', async () => {
    await assert.rejects(clientWith('not-the-token-of-this-app').getStatus());

    assert.deepEqual(log.at('info'), []);
    assert.ok(
      log.at('debug').some((line) => line.startsWith(`GET ${ENDPOINTS.status.path} 401 `)),
      log.toString(),
    );
    assert.ok(!log.toString().includes('not-the-token-of-this-app'), 'the token is never logged');
  });

  it('says "no answer" with the reason when nothing answers', async () => {
    const closed = new ServiceClient({
      token: TOKEN,
      port: await closedPort(),
      headerPrefix: 'Clessira',
      timeoutMs: 2_000,
      onRequest: (record) => logRequest(log, record),
    });
    await assert.rejects(closed.getStatus());

    assert.ok(
      log.at('debug').some((line) => /^GET \/status no answer [\d.]+ ms.*: .+/.test(line)),
      log.toString(),
    );
  });
});

/** A port nothing listens on: one the system just handed out and that was closed again. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
