import { createHash } from 'node:crypto';
import type { Pool } from 'pg';
import { DataSource, QueryFailedError } from 'typeorm';

/** Distinct statements prepared at most (each connection keeps each one it ran). */
const MAX_STATEMENTS = 500;

/**
 * The hot reads (an interrupt, an audit page) as named prepared statements on the data source's
 * own pool: Postgres parses and plans each statement once per connection instead of once per
 * request — for the interrupt read, about four times the statement's own cost on this machine
 * (issue 14, BENCHMARKS.md). Rows and errors are as `dataSource.query` gives them: the driver's
 * rows, and a failed statement as TypeORM's `QueryFailedError` carrying the driver's error.
 *
 * Named statements live in a server session, so they are used only when the pool's connections
 * are sessions of their own: not through a transaction-pooling proxy (configured with
 * `DATABASE_DIRECT_URL`), not on the embedded database (its connections share one session).
 * There, and past MAX_STATEMENTS distinct texts, statements run unnamed through TypeORM.
 */
export class PreparedReads {
  private readonly names = new Map<string, string>();
  private readonly pool: Pool | undefined;

  constructor(
    private readonly dataSource: DataSource,
    enabled: boolean,
  ) {
    this.pool = enabled ? (dataSource.driver as unknown as { master?: Pool }).master : undefined;
  }

  get prepared(): boolean {
    return this.pool !== undefined;
  }

  async query<T>(sql: string, params: unknown[]): Promise<T[]> {
    const name = this.pool === undefined ? undefined : this.nameOf(sql);
    if (this.pool === undefined || name === undefined) return this.dataSource.query(sql, params);
    try {
      const result = await this.pool.query({ name, text: sql, values: params });
      return result.rows as T[];
    } catch (error) {
      throw new QueryFailedError(sql, params, error as Error);
    }
  }

  /** One name per statement text (the driver refuses a name reused for another text). */
  private nameOf(sql: string): string | undefined {
    let name = this.names.get(sql);
    if (name === undefined) {
      if (this.names.size >= MAX_STATEMENTS) return undefined;
      name = `interlock_${createHash('sha256').update(sql).digest('hex').slice(0, 24)}`;
      this.names.set(sql, name);
    }
    return name;
  }
}
