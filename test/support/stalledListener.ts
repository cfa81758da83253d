/**
 * A TCP port where a connect neither succeeds nor fails: a listener in a stopped process with a
 * backlog of one. The kernel completes a connection or two into its queue, then drops further
 * SYNs. For connect time-outs, which a listener in this process cannot produce.
 */
import { spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';

export interface StalledListener {
  readonly port: number;
  close(): void;
}

export async function stalledListener(): Promise<StalledListener> {
  const child = spawn(
    process.execPath,
    [
      '-e',
      "const s = require('net').createServer().listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => console.log(s.address().port))",
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const held: Socket[] = [];
  const close = (): void => {
    for (const socket of held) socket.destroy();
    child.kill('SIGKILL');
  };
  try {
    const port = Number(
      await new Promise<string>((resolve) =>
        child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim())),
      ),
    );
    process.kill(child.pid!, 'SIGSTOP');
    // Fill the queue: until a plain connect hangs (a few at most).
    for (let i = 0; i < 16; i++) {
      const socket = connect({ port, host: '127.0.0.1' });
      socket.on('error', () => undefined);
      held.push(socket);
      const connected = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), 300);
        socket.once('connect', () => {
          clearTimeout(timer);
          resolve(true);
        });
      });
      if (!connected) break;
    }
    return { port, close };
  } catch (error) {
    close();
    throw error;
  }
}
