/**
 * The in-process controls of PROTOCOL.md §6: what the desktop app's own UI does to the real
 * service (the license, the token, a break, an endpoint not wired, the answers' style, the build, an activity
 * made in the app) and what a test reads back (the state, the debug view, failed sign-ins), plus
 * the clock. Apart from server.ts, which is the listeners' lifecycle: a test drives the app
 * through `server.controls`, a user of the server only starts and stops it.
 */
import type { ActivityReference, AppBuild, EndpointPath, LicenseState } from '../protocol/types';
import type { AnswerStyle } from './answerStyles';
import type { Clock } from './clock';
import type { DebugView, RequestRecord } from './debugView';
import type { ReferenceService } from './service';
import type { ServiceState } from './state';

/** The clock the server answers by, which `setClock` replaces for every part at once. */
export interface ClockSetting {
  now: Clock;
}

export class ServerControls {
  constructor(
    private readonly service: ReferenceService,
    private readonly debug: DebugView,
    private readonly clock: ClockSetting,
  ) {}

  get state(): ServiceState {
    return this.service.state;
  }

  get license(): LicenseState {
    return this.service.license;
  }

  setLicense(license: LicenseState): void {
    this.service.setLicense(license);
  }

  /**
   * As when the token is replaced in the app: requests signed with the old one are rejected from
   * the next one on. A capability file already written keeps the old token until the socket is
   * announced again (the integration turned off and on: `close()`, then `listenOnSocket()`).
   */
  setToken(token: string): void {
    if (token === '') throw new Error('The token must not be empty.');
    this.service.setToken(token);
  }

  setBreak(onBreak: boolean): void {
    this.service.state.setBreak(onBreak);
  }

  setUnwired(path: EndpointPath, unwired = true): void {
    this.service.setUnwired(path, unwired);
  }

  setClock(clock: Clock): void {
    this.clock.now = clock;
  }

  /** Adds an activity, in `groupName` when given, unless that group already has one of that name. */
  seedActivity(name: string, groupName: string | null = null): ActivityReference {
    return this.service.state.seedActivity(name, groupName);
  }

  get answers(): AnswerStyle {
    return this.service.answers;
  }

  /** Switches between full and minimal answers from the next request on. */
  setAnswers(style: AnswerStyle): void {
    this.service.setAnswers(style);
  }

  get build(): AppBuild {
    return this.service.build;
  }

  /** The endpoints of another build from the next request on, as an app updated in place; the header prefix stays. */
  setBuild(build: AppBuild): void {
    this.service.setBuild(build);
  }

  /** The app's debug view: the last 25 requests, oldest first. */
  debugView(): readonly RequestRecord[] {
    return this.debug.list();
  }

  /** Failed sign-ins counted toward the lockout since the start (beyond the debug view's 25). */
  get failedSignIns(): number {
    return this.service.failedSignIns;
  }
}
