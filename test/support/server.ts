/** Starts the reference server in-process on a free port with a clock the test moves by hand. */
import { createReferenceServer, type ReferenceServer, type ReferenceServerOptions } from '../../src/server/server';

export interface ManualClock {
  (): number;
  set(ms: number): void;
  advance(ms: number): void;
}

export function manualClock(startMs = Date.UTC(2026, 10, 22, 12, 0, 0)): ManualClock {
  let now = startMs;
  const clock = (() => now) as ManualClock;
  clock.set = (ms) => {
    now = ms;
  };
  clock.advance = (ms) => {
    now += ms;
  };
  return clock;
}

export const TEST_TOKEN = 'test-token-0123456789';

export interface StartedServer {
  readonly server: ReferenceServer;
  readonly port: number;
  readonly clock: ManualClock;
}

export async function startServer(options: Partial<ReferenceServerOptions> = {}): Promise<StartedServer> {
  const clock = manualClock();
  const server = createReferenceServer({ token: TEST_TOKEN, clock, ...options });
  const port = await server.listen(0);
  return { server, port, clock };
}

/** The server's entries as [activity name, minutes], in the order it logged them. */
export function loggedEntries(server: ReferenceServer): [string | undefined, number][] {
  const names = new Map(server.controls.state.listActivities().map((activity) => [activity.id, activity.name]));
  return server.controls.state.listEntries().map((entry) => [names.get(entry.activityID), entry.durationMinutes]);
}
