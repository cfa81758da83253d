import type * as vscode from 'vscode';
import { ConfigurationError, ServiceClient, type RequestRecord } from '../client';
import type { Settings } from './settings';

/**
 * Holds the one ServiceClient for the current token and settings, and replaces it (closing the
 * old pool) when either changes. Every request is logged as method, path, status and time.
 */
export class Connection implements vscode.Disposable {
  private current: ServiceClient | undefined;
  private key = '';

  constructor(private readonly log: vscode.LogOutputChannel) {}

  get client(): ServiceClient | undefined {
    return this.current;
  }

  /** Returns true when the client changed, so the caller knows to poll again. */
  update(token: string | undefined, settings: Settings): boolean {
    const key = `${settings.port}|${settings.headerPrefix}|${token ?? ''}`;
    if (key === this.key) return false;
    this.key = key;
    this.close();
    if (token === undefined) return true;
    try {
      this.current = new ServiceClient({
        token,
        port: settings.port,
        headerPrefix: settings.headerPrefix,
        onRequest: (record) => this.logRequest(record),
      });
    } catch (error) {
      if (!(error instanceof ConfigurationError)) throw error;
      this.log.error(error.message);
    }
    return true;
  }

  private logRequest(record: RequestRecord): void {
    const status = record.status === undefined ? 'no answer' : String(record.status);
    const line = `${record.method} ${record.path} ${status} ${record.durationMs} ms${record.retry ? ' (re-sent)' : ''}`;
    if (record.error) this.log.warn(`${line}: ${record.error.message}`);
    else if (record.status !== undefined && record.status >= 400) this.log.warn(line);
    else this.log.info(line);
  }

  private close(): void {
    const old = this.current;
    this.current = undefined;
    if (old) void old.close().catch((error: unknown) => this.log.warn(`Closing the old connection failed: ${String(error)}`));
  }

  dispose(): void {
    this.close();
  }
}
