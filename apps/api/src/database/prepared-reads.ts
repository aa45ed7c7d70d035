import { createHash } from 'node:crypto';
import type { Pool, PoolClient, QueryResult } from 'pg';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import type { Queryable } from './query-rows.util';

/** A transaction's raw `query`, as TypeORM's EntityManager types it (the caller names the rows). */
export interface TransactionQueries extends Queryable {
  query<T = unknown>(sql: string, parameters?: unknown[]): Promise<T>;
}

/** A text's statement: one name per text (the driver refuses a name reused for another text). */
interface NamedStatement {
  readonly name: string;
  readonly text: string;
}

function namedStatement(text: string): NamedStatement {
  return {
    name: `interlock_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`,
    text,
  };
}

/** Distinct statements prepared at most (each connection keeps each one it ran). */
export const MAX_PREPARED_STATEMENTS = 500;

export interface PreparedReadsOptions {
  /** Distinct texts given a name at most (MAX_PREPARED_STATEMENTS); tests lower it. */
  readonly maxStatements?: number;
  /**
   * Told once, the first time a text past the cap runs unnamed: the service logs it as a warning
   * (DatabaseModule), since those reads lose the saving of a named statement without a word else.
   */
  readonly onCapReached?: (cap: number, sql: string) => void;
  /**
   * Told once, the first time a transaction's statement runs unnamed through TypeORM because its
   * connection cannot be reached (`within`): the service logs it as a warning (DatabaseModule);
   * `fallbacks` counts every such statement.
   */
  readonly onFallback?: (reason: string, sql: string) => void;
}

/** The transaction runner's parts `within` uses (TypeORM's PostgresQueryRunner; not in its typings). */
interface TransactionRunner {
  databaseConnection?: PoolClient;
  isReleased: boolean;
}

/**
 * The hot reads (an interrupt, an audit page) as named prepared statements on the data source's
 * own pool: Postgres parses and plans each statement once per connection instead of once per
 * request — for the interrupt read, about four times the statement's own cost on this machine
 * (issue 14, BENCHMARKS.md). Each runs through node-postgres' public named statements
 * (`query({ name, text, values })`); issue 28 §2 measured our own wire-protocol writer against them
 * and it bought nothing (BENCHMARKS.md), so it is gone. Rows and errors are as `dataSource.query`
 * gives them: the driver's rows, and a failed statement as TypeORM's `QueryFailedError` carrying the
 * driver's error.
 *
 * Named statements live in a server session, so they are used only when the pool's connections
 * are sessions of their own: not through a transaction-pooling proxy (configured with
 * `DATABASE_DIRECT_URL`), not on the embedded database (its connections share one session).
 * There, and past MAX_PREPARED_STATEMENTS distinct texts, statements run unnamed through TypeORM:
 * the first text past the cap is reported once (`onCapReached`, a warning in the log) and
 * `unnamedTexts` counts them, so a query built with values in its text (a new text per call,
 * filling the cap) cannot turn the saving off for every later read unseen.
 *
 * Never silently off (issue 28): off is chosen with a reason (`offBecause`, the start-up line
 * `named prepared statements: off (<why>)`); asked to be on where the data source has no pool of
 * its own to name statements on, it is off with that reason (`startFailure`: an error line at
 * start, DatabaseModule); and a
 * transaction's statement that cannot reach the transaction's connection runs unnamed, counted
 * (`fallbacks`) and reported once (`onFallback`, a warning in the log).
 */
export class PreparedReads {
  private readonly statements = new Map<string, NamedStatement>();
  private readonly pool: Pool | undefined;
  private readonly maxStatements: number;
  private readonly unnamed = new Set<string>();
  /** Why the statements run unnamed: as given when off by choice, or the missing pool's reason. */
  readonly offBecause: string | undefined;
  /** Set when asked to be on with no pool to run on: why, for the start-up error line. */
  readonly startFailure: string | undefined;
  private fellBack = 0;

  /**
   * On (`enabled`), or off for the reason given — said at start-up (DatabaseModule) and kept in
   * `offBecause`; a unit test's scripted data source is off with its own reason.
   */
  constructor(
    private readonly dataSource: DataSource,
    enabled: boolean,
    offBecause?: string,
    private readonly options: PreparedReadsOptions = {},
  ) {
    this.pool = enabled ? (dataSource.driver as unknown as { master?: Pool }).master : undefined;
    this.startFailure =
      enabled && this.pool === undefined
        ? "the data source has no pool of its own to name statements on (TypeORM's driver.master is missing: a TypeORM upgrade may have moved it)"
        : undefined;
    this.offBecause = enabled ? this.startFailure : (offBecause ?? 'turned off by its caller');
    this.maxStatements = options.maxStatements ?? MAX_PREPARED_STATEMENTS;
  }

  /** Distinct texts run as named statements (at most `maxNamed`). */
  get namedTexts(): number {
    return this.statements.size;
  }

  /** The most distinct texts named (MAX_PREPARED_STATEMENTS unless a test lowers it). */
  get maxNamed(): number {
    return this.maxStatements;
  }

  /** Distinct texts that ran unnamed because the cap was full (at most the cap is remembered). */
  get unnamedTexts(): number {
    return this.unnamed.size;
  }

  get prepared(): boolean {
    return this.pool !== undefined;
  }

  /** A transaction's statements that ran unnamed because its connection could not be reached. */
  get fallbacks(): number {
    return this.fellBack;
  }

  /**
   * One step from the driver's promise to the rows, not an async function: a read waiting for a
   * connection or its answer holds no suspended frame of this call (issue 28: a PK read in flight
   * is held across scavenges, BENCHMARKS "session 21 (pkread)").
   */
  query<T>(sql: string, params: unknown[]): Promise<T[]> {
    const statement = this.pool === undefined ? undefined : this.statementOf(sql);
    if (this.pool === undefined || statement === undefined)
      return this.dataSource.query(sql, params);
    return this.pool.query({ name: statement.name, text: statement.text, values: params }).then(
      (result) => result.rows as T[],
      (error: unknown) => {
        throw new QueryFailedError(sql, params, error as Error);
      },
    );
  }

  /**
   * `query` with each row as the array of its columns in the statement's order (pg's rowMode
   * 'array'): no object a row, whose keyed stores pg makes for every statement of the process
   * alike (the audit page's 51 rows: ~6 µs of a page less, issue 28, session 23). Unnamed, the
   * rows TypeORM answers are turned into arrays by their columns' order: the statement's columns
   * must have distinct names, none of them an integer.
   */
  queryArrays<T extends readonly unknown[]>(sql: string, params: unknown[]): Promise<T[]> {
    const statement = this.pool === undefined ? undefined : this.statementOf(sql);
    if (this.pool === undefined || statement === undefined)
      return this.dataSource
        .query(sql, params)
        .then((rows: Record<string, unknown>[]) =>
          rows.map((row) => Object.values(row) as unknown as T),
        );
    return this.pool
      .query({ name: statement.name, text: statement.text, values: params, rowMode: 'array' })
      .then(
        (result) => result.rows as unknown as T[],
        (error: unknown) => {
          throw new QueryFailedError(sql, params, error as Error);
        },
      );
  }

  /**
   * The statements of a transaction (`dataSource.transaction((tx) => …)`), prepared the same way
   * on the transaction's own connection: a Queryable answering as `tx.query` does (rows; for
   * UPDATE and DELETE `[rows, rowCount]`). Statements without parameters go through `tx`.
   */
  within(tx: EntityManager): TransactionQueries {
    if (this.pool === undefined) return tx;
    const runner = tx.queryRunner as unknown as TransactionRunner | undefined;
    return {
      query: async <T>(sql: string, params: unknown[] = []): Promise<T> => {
        const statement = params.length === 0 ? undefined : this.statementOf(sql);
        if (statement === undefined) return tx.query<T>(sql, params);
        const client = runner?.databaseConnection;
        if (runner === undefined || client === undefined || runner.isReleased) {
          this.fallBack(
            runner === undefined
              ? 'the entity manager has no transaction runner'
              : runner.isReleased
                ? "the transaction's runner is released"
                : "the transaction's runner has no connection (TypeORM's databaseConnection)",
            sql,
          );
          return tx.query<T>(sql, params);
        }
        try {
          const raw: QueryResult = await client.query({ ...statement, values: params });
          return (
            raw.command === 'UPDATE' || raw.command === 'DELETE'
              ? [raw.rows, raw.rowCount]
              : raw.rows
          ) as T;
        } catch (error) {
          throw new QueryFailedError(sql, params, error as Error);
        }
      },
    };
  }

  /** One statement, and so one name, per text. */
  private statementOf(sql: string): NamedStatement | undefined {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      if (this.statements.size >= this.maxStatements) {
        this.noteUnnamed(sql);
        return undefined;
      }
      statement = namedStatement(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** A statement of a transaction run unnamed: counted, and the first one told. */
  private fallBack(reason: string, sql: string): void {
    this.fellBack += 1;
    if (this.fellBack === 1) this.options.onFallback?.(reason, sql);
  }

  private noteUnnamed(sql: string): void {
    if (this.unnamed.has(sql) || this.unnamed.size >= this.maxStatements) return;
    this.unnamed.add(sql);
    if (this.unnamed.size === 1) this.options.onCapReached?.(this.maxStatements, sql);
  }
}
