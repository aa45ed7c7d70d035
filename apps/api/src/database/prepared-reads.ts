import { createHash } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import type { Queryable } from './query-rows.util';

/** A transaction's raw `query`, as TypeORM's EntityManager types it (the caller names the rows). */
export interface TransactionQueries extends Queryable {
  query<T = unknown>(sql: string, parameters?: unknown[]): Promise<T>;
}

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

  /**
   * The statements of a transaction (`dataSource.transaction((tx) => …)`), prepared the same way
   * on the transaction's own connection: a Queryable answering as `tx.query` does (rows; for
   * UPDATE and DELETE `[rows, rowCount]`). Statements without parameters go through `tx`.
   */
  within(tx: EntityManager): TransactionQueries {
    const runner = tx.queryRunner as unknown as { databaseConnection?: PoolClient; isReleased: boolean } | undefined;
    if (this.pool === undefined || runner === undefined) return tx;
    return {
      query: async <T>(sql: string, params: unknown[] = []): Promise<T> => {
        const client = runner.databaseConnection;
        const name = params.length === 0 ? undefined : this.nameOf(sql);
        if (name === undefined || client === undefined || runner.isReleased) return tx.query<T>(sql, params);
        try {
          const raw = await client.query({ name, text: sql, values: params });
          return (raw.command === 'UPDATE' || raw.command === 'DELETE' ? [raw.rows, raw.rowCount] : raw.rows) as T;
        } catch (error) {
          throw new QueryFailedError(sql, params, error as Error);
        }
      },
    };
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
