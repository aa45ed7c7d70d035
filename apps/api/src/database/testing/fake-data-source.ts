import type { DataSource } from 'typeorm';

/** An audit entry as the audit writer inserted it through the fake transaction. */
export interface RecordedAuditEntry {
  action: string;
  actor: { type: string; id: string; name: string };
  target: { type: string | null; id: string | null; name: string | null };
  metadata: unknown;
}

/**
 * For services' unit specs over fake repositories: a data source whose `transaction` runs the
 * work on a fake transaction handle that answers every statement with no rows and records the
 * audit writer's inserts (the one SQL a service runs itself, through `writeAuditEntry`). The
 * handle is also what the service passes its repositories, so a spec can check it was.
 */
export function fakeDataSource(): {
  dataSource: DataSource;
  tx: { query(sql: string, params?: unknown[]): Promise<unknown[]> };
  audit: RecordedAuditEntry[];
} {
  const audit: RecordedAuditEntry[] = [];
  const tx = {
    async query(sql: string, params: unknown[] = []): Promise<unknown[]> {
      if (sql.includes('audit_log_entries')) {
        audit.push({
          action: params[2] as string,
          actor: { type: params[4] as string, id: params[5] as string, name: params[6] as string },
          target: {
            type: params[7] as string | null,
            id: params[8] as string | null,
            name: params[9] as string | null,
          },
          metadata: params[11] === null ? null : JSON.parse(params[11] as string),
        });
      }
      return [];
    },
  };
  const dataSource = {
    transaction: async <T>(work: (handle: typeof tx) => Promise<T>): Promise<T> => work(tx),
    query: tx.query,
    manager: tx,
  } as unknown as DataSource;
  return { dataSource, tx, audit };
}
