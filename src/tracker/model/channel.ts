/**
 * Which way the extension talks to the app, decided from what it can see: the capability file of
 * the app's VS Code integration (preferred: no setup at all), else the HTTP API with a token from
 * secret storage or the environment. Pure, so every decision, and when a change of inputs means
 * a new client, is unit-tested without an editor.
 */
import * as l10n from '@vscode/l10n';
import type { CapabilityReading } from '../../client/capabilityReader';

/** Where requests go: the app's socket, or its HTTP port on 127.0.0.1. */
export type Route =
  { readonly kind: 'integration'; readonly socketPath: string } | { readonly kind: 'http'; readonly port: number };

/** A token for the HTTP API and where it came from: secret storage, or the variable that held it. */
export interface HttpToken {
  readonly token: string;
  readonly source: 'secretStorage' | `$${string}`;
}

export type Channel =
  | {
      readonly kind: 'integration';
      readonly route: Extract<Route, { kind: 'integration' }>;
      readonly token: string;
      readonly pid: number;
      /** The capability file it was read from. */
      readonly file: string;
    }
  | {
      readonly kind: 'http';
      readonly route: Extract<Route, { kind: 'http' }>;
      readonly token: string;
      readonly tokenSource: HttpToken['source'];
    }
  | {
      readonly kind: 'none';
      readonly route: Route;
      /**
       * `noToken`: no integration and no token (a new user); `appClosed`: the integration was in
       * use or its file is stale, so the app quit; `integrationUnusable`: its file is there but
       * cannot be used (unreadable, invalid, newer, untrusted), and no token gives another way;
       * `remoteHost`: the extension runs on a remote machine, where no way leads to the user's app
       * (src/tracker/model/remoteHost.ts), so none is looked for.
       */
      readonly reason: 'noToken' | 'appClosed' | 'integrationUnusable' | 'remoteHost';
    };

export interface ChannelInputs {
  readonly capability: CapabilityReading;
  readonly httpToken: HttpToken | undefined;
  readonly port: number;
  /** The integration was in use before (in any window): its file gone means the app quit, not "never set up". */
  readonly integrationSeen: boolean;
  /** The extension runs where it must send nothing (remoteHost.ts): no token and no file counts. */
  readonly hostRefused?: boolean;
}

export function chooseChannel({ capability, httpToken, port, integrationSeen, hostRefused }: ChannelInputs): Channel {
  if (hostRefused === true) return { kind: 'none', route: { kind: 'http', port }, reason: 'remoteHost' };
  if (capability.kind === 'ready') {
    const { socketPath, token, pid } = capability.capability;
    return { kind: 'integration', route: { kind: 'integration', socketPath }, token, pid, file: capability.path };
  }
  const http = { kind: 'http', port } as const;
  if (httpToken) return { kind: 'http', route: http, token: httpToken.token, tokenSource: httpToken.source };
  switch (capability.kind) {
    case 'unreadable':
    case 'invalid':
    case 'newer':
    case 'untrusted':
      return { kind: 'none', route: http, reason: 'integrationUnusable' };
    case 'stale':
      return {
        kind: 'none',
        route: { kind: 'integration', socketPath: capability.capability.socketPath },
        reason: 'appClosed',
      };
    case 'absent':
      return integrationSeen
        ? { kind: 'none', route: { kind: 'integration', socketPath: '' }, reason: 'appClosed' }
        : { kind: 'none', route: http, reason: 'noToken' };
  }
}

/**
 * Two channels with the same key need the same client: a new client (and pool) only when the
 * route, the token, the app's process or the header prefix setting changed. The key stays in
 * memory only; it holds the token.
 */
export function channelKey(channel: Channel, headerPrefix: string): string {
  switch (channel.kind) {
    case 'integration':
      return JSON.stringify(['integration', channel.route.socketPath, channel.pid, channel.token, headerPrefix]);
    case 'http':
      return JSON.stringify(['http', channel.route.port, channel.token, headerPrefix]);
    case 'none':
      return JSON.stringify(['none', channel.reason, channel.route]);
  }
}

/** "through the app's VS Code integration" or "through the HTTP API on 127.0.0.1:39847", for the user. */
export function describeRoute(route: Route): string {
  return route.kind === 'integration'
    ? l10n.t("through the app's VS Code integration")
    : l10n.t('through the HTTP API on {0}', httpAddress(route.port));
}

/** The same, in English, for the log (support reads it in one language). */
export function describeRouteForLog(route: Route): string {
  return route.kind === 'integration'
    ? `through the app's VS Code integration (socket ${route.socketPath || 'unknown'})`
    : `through the HTTP API on ${httpAddress(route.port)}`;
}

export function httpAddress(port: number): string {
  return `127.0.0.1:${port}`;
}

/** Why there is no channel, in English, for the log. */
export function describeNoChannelForLog(reason: Extract<Channel, { kind: 'none' }>['reason']): string {
  switch (reason) {
    case 'noToken':
      return "Not connected: the app's VS Code integration is off (no capability file) and no token is set for its HTTP API.";
    case 'appClosed':
      return (
        "Not connected: the app's VS Code integration is gone or stale, " +
        'so the app is not running, and no token is set for its HTTP API.'
      );
    case 'integrationUnusable':
      return "Not connected: the app's VS Code integration file cannot be used (see above), and no token is set for its HTTP API.";
    case 'remoteHost':
      return 'Not connected: the extension runs on the remote machine of this remote window, where it sends nothing (see above).';
  }
}

/** What is wrong with a capability file that cannot be used, in English, for the log; undefined when nothing is. */
export function capabilityProblem(reading: CapabilityReading): string | undefined {
  switch (reading.kind) {
    case 'unreadable':
      return `The app's VS Code integration file ${reading.path} cannot be read: ${reading.message}`;
    case 'invalid':
      return `The app's VS Code integration file ${reading.path} is not valid: ${reading.message}`;
    case 'newer':
      return `The app's VS Code integration file ${reading.path} is of a newer version: ${reading.message}`;
    case 'untrusted':
      return `The app's VS Code integration file ${reading.path} is not used: ${reading.message}`;
    case 'stale':
      return (
        `The app's VS Code integration file ${reading.path} names process ${reading.capability.pid}, ` +
        'which is not running: the app has quit.'
      );
    case 'absent':
    case 'ready':
      return undefined;
  }
}
