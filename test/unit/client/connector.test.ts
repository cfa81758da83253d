/**
 * The transport's agent: it opens connections without `net.connect` (which VS Code's extension
 * host wraps with a certificate loader that runs on every connection), and keeps the codes the
 * transport sorts failures by.
 */
import assert from 'node:assert/strict';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CONNECT_TIMEOUT, HoldingAgent } from '../../../src/client/connector';
import { countNetConnects } from '../../support/netConnectCounter';
import { rejection } from '../../support/rejection';
import { stalledListener } from '../../support/stalledListener';

/** A GET of /status through `agent`, its answer read whole. */
function get(agent: HoldingAgent, port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ agent, host: '127.0.0.1', port, path: '/status' }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      incoming.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('client/connector: opening the connections of the agent', () => {
  it("connects without net.connect, which VS Code's extension host wraps", async () => {
    const server = createServer((_incoming, answer) => answer.end('here'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const agent = new HoldingAgent({ kind: 'tcp', host: '127.0.0.1', port }, 1, 5_000);
    try {
      const { result, calls } = await countNetConnects(() => get(agent, port));
      assert.equal(result, 'here');
      assert.equal(calls, 0, 'the connection did not go through net.connect');
    } finally {
      agent.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('fails with its connect time-out code when a connect neither succeeds nor fails', async function () {
    if (process.platform === 'win32') this.skip();
    const listener = await stalledListener();
    const agent = new HoldingAgent({ kind: 'tcp', host: '127.0.0.1', port: listener.port }, 1, 200);
    try {
      const started = Date.now();
      const error = await rejection(get(agent, listener.port));
      assert.equal((error as { code?: unknown }).code, CONNECT_TIMEOUT, String(error));
      assert.match(String(error), new RegExp(`Connecting to 127\\.0\\.0\\.1:${listener.port} took longer than 200 ms`));
      assert.ok(Date.now() - started < 2_000, 'the time-out bounded the connect');
    } finally {
      agent.destroy();
      listener.close();
    }
  });
});
