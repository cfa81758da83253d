/** Where each request the client makes is written down, for support reading the log at debug level. */
import type { RequestRecord } from '../client';
import type { Log } from './oneLineLog';

/**
 * One log line per request: method, path, status and time, at debug level whatever the outcome.
 * A poll every 10 s would otherwise be 360 lines an hour at info; what a request changed is said
 * at info once (the session's state changes, the commands, the queue), and a failure the user
 * must hear of reaches them through the state or the command that met it. The client hands over
 * no headers, so the token cannot get here.
 */
export function logRequest(log: Log, record: RequestRecord): void {
  const status = record.status === undefined ? 'no answer' : String(record.status);
  const line = `${record.method} ${record.path} ${status} ${record.durationMs} ms${record.retry ? ' (re-sent)' : ''}`;
  log.debug(record.error ? `${line}: ${record.error.message}` : line);
}
