/**
 * Check Connection: reads the integration's file again, asks the app's health and status, and
 * says in one sentence what works or what to fix (the diagnosis is src/tracker/advice/advice.ts).
 * While polling is paused (the app rejected the token or locks us out) it is the user's one retry:
 * one signed request, the health check; only when that passes do the status and polling follow,
 * so that clicking it again and again cannot lock every tool out.
 */
import { reachability } from '../../client/reachability';
import { DEFAULT_PORT } from '../../protocol/constants';
import { describeRouteForLog } from '../../tracker/model/channel';
import { signingPause, stateAfterPausedCheck } from '../../tracker/model/signingPause';
import { diagnose, type Advice } from '../../tracker/advice/advice';
import type { CommandServices } from './services';

export async function checkConnection(services: CommandServices): Promise<Advice> {
  const { session } = services;
  // A capability file that appeared or went stale a moment ago counts: read it now.
  await session.recheckIntegration();
  const client = await session.ready();
  const facts = { channel: session.channel, capability: session.capability, defaultPort: DEFAULT_PORT };
  const pause = signingPause(session.state, Date.now());
  const paused = pause !== undefined;
  let advice: Advice;
  let healthy = false;
  /** Why the health check failed, when it did. */
  let failed: unknown;
  if (!client) {
    advice = diagnose(facts);
  } else {
    let health: unknown;
    let statusError: unknown;
    try {
      const answer = await client.healthcheck();
      health = answer;
      healthy = true;
      // Not said (the app's first releases answer `{"ok": true}`) is not locked: look at the status.
      // While paused, the poll after a passed health check is the status check.
      if (answer.license !== 'locked' && !paused) {
        await client.getStatus().catch((error: unknown) => {
          statusError = error;
        });
      }
    } catch (error) {
      health = error;
      failed = error;
    }
    const route = session.channel.route;
    const defaultPortAnswers =
      route.kind === 'http' &&
      route.port !== DEFAULT_PORT &&
      (await reachability({ port: DEFAULT_PORT })).kind === 'listening';
    advice = diagnose({ ...facts, health, statusError, defaultPortAnswers });
  }
  services.log.info(`Check Connection (${describeRouteForLog(session.channel.route)}): ${advice.message}`);
  // Paused, a failed health check is not followed by a poll (one more failed sign-in): what it
  // learned is shown as it is, where it tells (the app that locked us out has quit, say).
  if (pause === undefined || healthy) void session.refresh();
  else if (failed !== undefined) {
    const checked = stateAfterPausedCheck(pause, failed, Date.now());
    if (checked !== undefined) session.showChecked(checked);
  }
  void services.messages.advise(advice);
  return advice;
}
