import { RateLimiterPostgres } from 'rate-limiter-flexible';
import type { DataSource } from 'typeorm';

/** What the store needs of Postgres: the pool's query, with no named (prepared) statements. */
interface PgPool {
  query(query: { text: string; values?: unknown[] }): Promise<unknown>;
}

/** Makes the limiters of one kind of throttling; undefined for a limit of 0 points (turned off). */
export type PostgresLimiterFactory = (
  keyPrefix: string,
  points: number,
  durationSeconds: number,
) => RateLimiterPostgres | undefined;

/**
 * Limiters on rate-limiter-flexible's Postgres store in `rate_limits` (migration-made, so never
 * created at run time), shared by every instance: one atomic upsert per point, exact across
 * instances. Sign-in and sign-up throttling and the people's write budgets use it. The pool's
 * statements are sent unnamed: named ones would not survive a transaction-pooling PgBouncer.
 */
export function postgresLimiters(dataSource: DataSource): PostgresLimiterFactory {
  const master = (dataSource.driver as unknown as { master: PgPool }).master;
  const storeClient: PgPool = { query: ({ text, values }) => master.query({ text, values }) };
  return (keyPrefix, points, durationSeconds) =>
    points === 0
      ? undefined
      : new RateLimiterPostgres({
          storeClient,
          storeType: 'pool',
          tableName: 'rate_limits',
          tableCreated: true,
          keyPrefix,
          points,
          duration: durationSeconds,
          // Ended windows are swept once across instances by RateLimitSweepJob, not by a timer of
          // each limiter's own that nothing stops.
          clearExpiredByTimeout: false,
        });
}
