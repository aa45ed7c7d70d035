import type { Interlock } from '../client';
import type { PagePromise } from '../pagination';
import type { RequestOptions } from '../request-options';
import type { AuditLogEntry, AuditLogListParams, AuditLogListResponse } from '../types';

/** The organisation's append-only audit log: `/api/audit-log` (Pro plan). */
export class AuditLog {
  constructor(private readonly client: Interlock) {}

  /**
   * Entries, newest first. `for await (const e of client.auditLog.list({...}))` walks every page
   * with the same filters; `await` it (or `.firstPage()`) for page-by-page access.
   */
  list(params: AuditLogListParams = {}, options?: RequestOptions): PagePromise<AuditLogEntry> {
    return this.client.getList<AuditLogEntry, AuditLogListResponse>(
      '/api/audit-log',
      params,
      (body) => body.entries,
      options,
    );
  }
}
