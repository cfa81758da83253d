/**
 * The time-tracking app as the soak sees it: one reference server at a time behind the
 * FaultyProxy on a fixed port. A restart is a new server instance that keeps what the real app
 * keeps (activities, sessions, the running activity, entries) and what the desktop UI set
 * (license, break, unwired endpoints); like a restarted app, it forgets nonces, failed sign-ins and
 * a lockout.
 */
import type { LicenseState, EndpointPath } from '../../../src/protocol/types';
import { createReferenceServer, type ReferenceServer } from '../../../src/server/server';
import type { BranchReport, ServiceState, StateSnapshot } from '../../../src/server/state';
import { FaultyProxy } from './proxy';

export class SoakApp {
  readonly proxy: FaultyProxy;
  private server: ReferenceServer | undefined;
  private kept: StateSnapshot | undefined;
  private license: LicenseState = 'valid';
  private onBreak = false;
  private readonly unwired = new Set<EndpointPath>();
  /** Branch reports received by instances that are gone (a restart does not keep them). */
  private readonly pastReports: BranchReport[] = [];
  private queue: Promise<unknown> = Promise.resolve();
  /** Server instances started so far. */
  instances = 0;
  /** Called each time the app goes away, so the user can log while it is gone. */
  onDown: () => void = () => undefined;

  constructor(
    private readonly token: string,
    port: number,
  ) {
    this.proxy = new FaultyProxy(port);
  }

  get isUp(): boolean {
    return this.server !== undefined && this.proxy.listening;
  }

  /** The running instance's state (activities, entries…); the app must be up. */
  get state(): ServiceState {
    if (!this.server) throw new Error('the app is down');
    return this.server.controls.state;
  }

  /** The running instance's port behind the proxy, for requests that bypass it. */
  get serverPort(): number {
    if (!this.server) throw new Error('the app is down');
    return this.server.port;
  }

  branchReports(): BranchReport[] {
    return [...this.pastReports, ...(this.server?.controls.state.listBranchReports() ?? [])];
  }

  /** Runs `work` after every earlier exclusive work has finished: restarts never interleave. */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const result = this.queue.then(work);
    this.queue = result.catch(() => undefined);
    return result;
  }

  /** Starts a server instance (with the kept state), then lets the proxy accept again. */
  async up(): Promise<void> {
    if (this.server) return;
    const server = createReferenceServer({ token: this.token, license: this.license, unwired: [...this.unwired] });
    if (this.kept) server.controls.state.restore(this.kept);
    server.controls.setBreak(this.onBreak);
    this.proxy.upstreamPort = await server.listen(0);
    this.server = server;
    this.instances++;
    await this.proxy.listen();
  }

  /** The app goes away: connections refused from now on, every open one reset, state kept. */
  async down(): Promise<void> {
    await this.proxy.close();
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    this.kept = server.controls.state.snapshot();
    this.pastReports.push(...server.controls.state.listBranchReports());
    await server.close();
    this.onDown();
  }

  setLicense(license: LicenseState): void {
    this.license = license;
    this.server?.controls.setLicense(license);
  }

  setBreak(onBreak: boolean): void {
    this.onBreak = onBreak;
    this.server?.controls.setBreak(onBreak);
  }

  setUnwired(path: EndpointPath, unwired: boolean): void {
    if (unwired) this.unwired.add(path);
    else this.unwired.delete(path);
    this.server?.controls.setUnwired(path, unwired);
  }

  /** Every control back to normal and the app up: what the soak's end checks run against. */
  async heal(): Promise<void> {
    await this.exclusive(async () => {
      this.proxy.mode = 'pass';
      this.setLicense('valid');
      this.setBreak(false);
      for (const path of [...this.unwired]) this.setUnwired(path, false);
      await this.up();
      if (!this.proxy.listening) await this.proxy.listen();
    });
  }

  async stop(): Promise<void> {
    this.onDown = () => undefined;
    await this.down();
  }
}
