import type { EventEmitter } from 'node:events';
import { Query } from 'pg';
import type { DataSource } from 'typeorm';
import type { PreparedReads } from '../database/prepared-reads';
import type { Metrics } from './metrics';

/** The parts of pg's Pool read here. */
interface PgPool extends EventEmitter {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
  readonly options: { max?: number };
}

type QueryFn = (...args: unknown[]) => unknown;
const TIMED = Symbol('interlock.metrics.timed');

const STATEMENT_KINDS = new Set(['select', 'insert', 'update', 'delete', 'with']);
const TRANSACTION_WORDS = new Set([
  'begin',
  'start',
  'commit',
  'rollback',
  'savepoint',
  'release',
  'set',
]);

/** The statement's kind from its first keyword: a closed set, never the text. */
export function statementKind(text: unknown): string {
  if (typeof text !== 'string') return 'other';
  const word = /^[\s(]*([A-Za-z]+)/.exec(text)?.[1]?.toLowerCase();
  if (word === undefined) return 'other';
  if (STATEMENT_KINDS.has(word)) return word;
  return TRANSACTION_WORDS.has(word) ? 'transaction' : 'other';
}

/**
 * The pool's state at each scrape, and the time of every statement run on a pooled connection:
 * each client's `query` is timed once, when the pool first hands it out. Works for the three
 * ways pg runs a statement — a promise, a callback, and a submittable (the prepared reads).
 */
export function instrumentDatabase(dataSource: DataSource, metrics: Metrics): void {
  const pool = (dataSource.driver as unknown as { master?: PgPool }).master;
  if (pool === undefined) return;
  metrics.addCollector('db-pool', () => {
    metrics.dbPoolConnections.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
    metrics.dbPoolConnections.set({ state: 'idle' }, pool.idleCount);
    metrics.dbPoolWaiting.set(pool.waitingCount);
    metrics.dbPoolMax.set(pool.options.max ?? 10);
  });
  const TimedQuery = timedQueryClass(Query as unknown as PgQueryClass, metrics);
  pool.on('acquire', (client: Record<string | symbol, unknown>) => {
    if (client[TIMED] === true) return;
    client[TIMED] = true;
    client.query = timedQuery(client.query as QueryFn, metrics, TimedQuery);
  });
}

/** A statement of kind `statement` answered (or failed): its time since `started`, in seconds. */
function observeStatement(metrics: Metrics, statement: string, started: bigint): void {
  metrics.dbQueryDuration.observe({ statement }, Number(process.hrtime.bigint() - started) / 1e9);
}

/** The parts of pg's `Query` (its public constructor) a timed statement overrides. */
interface PgQuery {
  handleReadyForQuery(connection: unknown): void;
  handleError(error: unknown, connection: unknown): void;
}
type PgQueryClass = new (config: unknown, values: unknown, callback: unknown) => PgQuery;
/** The part of a statement's config pg's client reads from the query itself. */
interface PgQueryConfig {
  query_timeout?: unknown;
}

/**
 * pg's `Query` with the time from its creation to its answer (`handleReadyForQuery`, after the
 * rows) or its error, observed once, before the caller's callback runs. A statement run with a
 * callback becomes one of these with the caller's own callback, so pg calls that callback
 * directly: handing pg a callback of ours in its place kept each statement's rows alive across
 * two scavenges (issue 28, session 21: +0.60 MB a scavenge on the PK read, BENCHMARKS.md).
 */
function timedQueryClass(Query: PgQueryClass, metrics: Metrics): PgQueryClass {
  return class TimedQuery extends Query {
    private readonly started = process.hrtime.bigint();
    private readonly statement: string;
    private observed = false;

    constructor(config: unknown, values: unknown, callback: unknown) {
      super(config, values, callback);
      this.statement = statementKind(
        typeof config === 'string' ? config : (config as { text?: unknown }).text,
      );
      // pg's client reads a statement's own read timeout from the object it is given (this one),
      // and pg's Query does not copy it from its config: carried over, or it would be dropped.
      const timeout =
        typeof config === 'object' && config !== null
          ? (config as PgQueryConfig).query_timeout
          : undefined;
      if (timeout !== undefined) (this as PgQueryConfig).query_timeout = timeout;
    }

    private observe(): void {
      if (this.observed) return;
      this.observed = true;
      observeStatement(metrics, this.statement, this.started);
    }

    override handleReadyForQuery(connection: unknown): void {
      this.observe();
      super.handleReadyForQuery(connection);
    }

    override handleError(error: unknown, connection: unknown): void {
      this.observe();
      super.handleError(error, connection);
    }
  };
}

function timedQuery(query: QueryFn, metrics: Metrics, TimedQuery: PgQueryClass): QueryFn {
  return function (this: unknown, ...args: unknown[]) {
    const first = args[0] as
      { text?: unknown; submit?: unknown; callback?: unknown } | string | undefined;
    const last = args.length - 1;
    if (
      last > 0 &&
      typeof args[last] === 'function' &&
      first !== null &&
      first !== undefined &&
      (typeof first === 'string' || typeof first.submit !== 'function')
    ) {
      // A statement with a callback (pg-pool's pool.query): pg's own Query, timed, with the
      // caller's callback untouched. pg answers a callback call with undefined.
      query.call(this, new TimedQuery(first, last > 1 ? args[1] : undefined, args[last]));
      return undefined;
    }
    const statement = statementKind(typeof first === 'string' ? first : first?.text);
    const started = process.hrtime.bigint();
    let observed = false;
    const observe = () => {
      if (observed) return;
      observed = true;
      observeStatement(metrics, statement, started);
    };
    const result = query.apply(this, args);
    if (result !== null && typeof result === 'object') {
      if (typeof (result as Promise<unknown>).then === 'function') {
        (result as Promise<unknown>).then(observe, observe);
      } else if (
        typeof first === 'object' &&
        first !== null &&
        typeof first.submit === 'function'
      ) {
        // A submittable: the client (or the caller) set its callback; time up to it.
        const submitted = first as { callback?: unknown };
        const callback = submitted.callback;
        if (typeof callback === 'function') {
          submitted.callback = function (this: unknown, ...results: unknown[]) {
            observe();
            return (callback as QueryFn).apply(this, results);
          };
        } else if (typeof (result as EventEmitter).once === 'function') {
          (result as EventEmitter).once('end', observe).once('error', observe);
        }
      }
    }
    return result;
  };
}

/**
 * The hot reads' named prepared statements at each scrape: on or off, how many texts are named
 * and the cap, how many texts ran unnamed past it — the start-up log's once-only warning
 * (DatabaseModule) as a series an alert can watch (InterlockNamedStatementsCapReached) — and how
 * many of a transaction's statements ran unnamed because its connection could not be reached.
 */
export function instrumentPreparedReads(reads: PreparedReads, metrics: Metrics): void {
  metrics.addCollector('named-statements', () => {
    metrics.dbNamedStatementsOn.set(reads.prepared ? 1 : 0);
    metrics.dbNamedStatements.set(reads.namedTexts);
    metrics.dbNamedStatementsMax.set(reads.maxNamed);
    metrics.dbUnnamedStatements.set(reads.unnamedTexts);
    metrics.dbUnnamedFallbacks.set(reads.fallbacks);
  });
}
