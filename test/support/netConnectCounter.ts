/**
 * Counts calls of `net.connect` / `net.createConnection` while `run` runs, as VS Code's extension
 * host sees them: it wraps `net.connect` (its proxy agent) with a certificate loader, and the
 * client's sockets must not pass through it.
 */
import net from 'node:net';

export async function countNetConnects<T>(
  run: () => Promise<T>,
): Promise<{ readonly result: T; readonly calls: number }> {
  const original = { connect: net.connect, createConnection: net.createConnection };
  let calls = 0;
  const counting = ((...args: Parameters<typeof net.connect>) => {
    calls++;
    return original.connect(...args);
  }) as typeof net.connect;
  net.connect = counting;
  net.createConnection = counting;
  try {
    return { result: await run(), calls };
  } finally {
    net.connect = original.connect;
    net.createConnection = original.createConnection;
  }
}
