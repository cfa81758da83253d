/** `node dist/server.js`: the reference server as a program, as the desktop application would run it. */
import { randomBytes, randomUUID } from 'node:crypto';
import { errnoCode, errorMessage } from '../platform/errors';
import { parseCli, USAGE } from './cli';
import { DataFile } from './dataFile';
import { demoSnapshot } from './demo';
import { exitStatusOf, ServerError } from './errors';
import { createReferenceServer } from './server';

/** The signals that end the server as the app quits: the socket and the capability file are removed. */
const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

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
    ...(config.demo ? { initialState: demoSnapshot(Date.now(), randomUUID, config.startedAgoMs) } : {}),
    ...(config.startedAgoMs === undefined || config.demo ? {} : { seedStartedAgoMs: config.startedAgoMs }),
    countUnsigned: config.countUnsigned,
    ...(config.dataPath === undefined ? {} : { dataFile: new DataFile(config.dataPath) }),
    onRequest: (line) => console.log(line),
  });
  // Registered before listening, so a signal that arrives during start-up also ends cleanly.
  // SIGHUP is a closed terminal: without a handler Node dies of it and leaves the socket behind.
  const stopRequested = new Promise<void>((resolve) => {
    for (const signal of STOP_SIGNALS) process.once(signal, () => resolve());
  });
  try {
    // TCP first: if its port is taken, no capability file has announced anything yet.
    if (config.port !== undefined) await server.listen(config.port);
    if (config.socketPath !== undefined) {
      await server.listenOnSocket(config.socketPath, { capabilityFile: config.capabilityFile });
    }
  } catch (error) {
    console.error(describeStartFailure(error, config.port));
    // Whatever did start is undone, so no socket or capability file outlives the failed start.
    await server.close().catch(() => undefined);
    return exitStatusOf(error) ?? 1;
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

/** The server's own errors (errors.ts) say it in their sentence; the TCP listen fails with a bare errno. */
function describeStartFailure(error: unknown, port: number | undefined): string {
  if (error instanceof ServerError) return error.message;
  if (port !== undefined) {
    switch (errnoCode(error)) {
      case 'EADDRINUSE':
        return `Port ${port} on 127.0.0.1 is already in use; pick another with --port.`;
      case 'EACCES':
        return `Not allowed to listen on port ${port} of 127.0.0.1.`;
    }
  }
  return `The server could not start: ${errorMessage(error)}`;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(errorMessage(error));
    process.exit(1);
  },
);
