/** `node dist/server.js`: the reference server as a program, as the desktop application would run it. */
import { randomBytes, randomUUID } from 'node:crypto';
import { CapabilityFileError } from './capabilityFile';
import { parseCli, USAGE } from './cli';
import { DataFile, DataFileError } from './dataFile';
import { demoSnapshot } from './demo';
import { createReferenceServer } from './server';
import { SocketPathError } from './unixSocket';

async function main(): Promise<number> {
  const parsed = parseCli(process.argv.slice(2), process.env);
  if (parsed.kind === 'help') {
    console.log(USAGE);
    return 0;
  }
  if (parsed.kind === 'error') {
    console.error(parsed.message);
    return 2;
  }
  const { config } = parsed;
  const generated = config.token === undefined;
  const token = config.token ?? randomBytes(24).toString('base64url');
  const server = createReferenceServer({
    token,
    headerPrefix: config.headerPrefix,
    license: config.license,
    unwired: config.unwired,
    answers: config.answers,
    build: config.build,
    seedActivities: config.seed,
    ...(config.demo ? { initialState: demoSnapshot(Date.now(), randomUUID) } : {}),
    countUnsigned: config.countUnsigned,
    ...(config.dataPath === undefined ? {} : { dataFile: new DataFile(config.dataPath) }),
    onRequest: (line) => console.log(line),
  });
  // Registered before listening, so a signal that arrives during start-up also ends cleanly.
  const stopRequested = new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  try {
    // TCP first: if its port is taken, no capability file has announced anything yet.
    if (config.port !== undefined) await server.listen(config.port);
    if (config.socketPath !== undefined) {
      await server.listenOnSocket(config.socketPath, config.capabilityFile === undefined ? {} : { capabilityFile: config.capabilityFile });
    }
  } catch (error) {
    console.error(describeStartFailure(error, config.port));
    // Whatever did start is undone, so no socket or capability file outlives the failed start.
    await server.close().catch(() => undefined);
    return 1;
  }
  // Printed once, as the application shows a new token in its settings; a given token never is.
  if (generated) console.log(`token: ${token}`);
  if (config.port !== undefined) console.log(`listening on ${server.url}`);
  if (server.socketPath !== undefined) console.log(`listening on unix:${server.socketPath}`);

  await stopRequested;
  // Also removes the socket and the capability file (unless another server has replaced it).
  await server.close();
  return 0;
}

function describeStartFailure(error: unknown, port: number | undefined): string {
  if (error instanceof DataFileError || error instanceof SocketPathError || error instanceof CapabilityFileError) return error.message;
  const code = (error as NodeJS.ErrnoException).code;
  // Only the TCP listen fails with a bare errno: the socket's failures are SocketPathErrors.
  if (port !== undefined && code === 'EADDRINUSE') return `Port ${port} on 127.0.0.1 is already in use; pick another with --port.`;
  if (port !== undefined && code === 'EACCES') return `Not allowed to listen on port ${port} of 127.0.0.1.`;
  return `The server could not start: ${error instanceof Error ? error.message : String(error)}`;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
