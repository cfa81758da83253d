import type * as vscode from 'vscode';
import type { RequestRecord } from '../client';

/**
 * One log line per request: method, path, status and time, at the level its outcome deserves.
 * The client hands over no headers, so the token cannot get here.
 */
export function logRequest(log: vscode.LogOutputChannel, record: RequestRecord): void {
  const status = record.status === undefined ? 'no answer' : String(record.status);
  const line = `${record.method} ${record.path} ${status} ${record.durationMs} ms${record.retry ? ' (re-sent)' : ''}`;
  if (record.error) log.warn(`${line}: ${record.error.message}`);
  else if (record.status !== undefined && record.status >= 400) log.warn(line);
  else log.info(line);
}
