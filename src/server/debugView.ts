import { DEBUG_VIEW_SIZE } from '../protocol/constants';

export interface RequestRecord {
  /** ISO-8601 UTC, from the service clock. */
  readonly time: string;
  readonly method: string;
  /** Without the query: search terms stay out of the view. */
  readonly path: string;
  readonly status: number;
}

/** The application's debug view: the last 25 requests, oldest first. */
export class DebugView {
  private readonly records: RequestRecord[] = [];

  add(record: RequestRecord): void {
    this.records.push(record);
    if (this.records.length > DEBUG_VIEW_SIZE) this.records.shift();
  }

  list(): readonly RequestRecord[] {
    return [...this.records];
  }
}

export function formatRequestRecord(record: RequestRecord): string {
  return `${record.time} ${record.method} ${record.path} ${record.status}`;
}
