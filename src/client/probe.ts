/**
 * Does anything answer HTTP on the port? For onboarding without a token, where no signed poll
 * can tell. It sends an unsigned `OPTIONS /healthcheck`, which the application refuses with `403`
 * at its loopback hardening, before the lockout and the signature are looked at (PROTOCOL.md §2
 * step 0): it never counts as a failed authentication, so probing cannot lock anyone out.
 */
import { request } from 'node:http';
import { ENDPOINTS } from '../protocol/types';

export interface ProbeOptions {
  readonly port: number;
  /** Milliseconds until the probe gives up and says no; default 2000. */
  readonly timeoutMs?: number;
}

/** Resolves true on any HTTP answer, false on none (refused, reset, timed out); never rejects. */
export function answersHttp({ port, timeoutMs = 2_000 }: ProbeOptions): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = request({ host: '127.0.0.1', port, method: 'OPTIONS', path: ENDPOINTS.healthcheck.path, agent: false, timeout: timeoutMs }, (response) => {
      response.resume();
      resolve(true);
    });
    probe.once('timeout', () => probe.destroy());
    probe.once('error', () => resolve(false));
    probe.end();
  });
}
