import type { EventEmitter } from 'node:events';
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
  pool.on('acquire', (client: Record<string | symbol, unknown>) => {
    if (client[TIMED] === true) return;
    client[TIMED] = true;
    client.query = timedQuery(client.query as QueryFn, metrics);
  });
}

function timedQuery(query: QueryFn, metrics: Metrics): QueryFn {
  return function (this: unknown, ...args: unknown[]) {
    const first = args[0] as
      { text?: unknown; submit?: unknown; callback?: unknown } | string | undefined;
    const statement = statementKind(typeof first === 'string' ? first : first?.text);
    const started = process.hrtime.bigint();
    let observed = false;
    const observe = () => {
      if (observed) return;
      observed = true;
      metrics.dbQueryDuration.observe(
        { statement },
        Number(process.hrtime.bigint() - started) / 1e9,
      );
    };
    const last = args.length - 1;
    if (last > 0 && typeof args[last] === 'function') {
      const callback = args[last] as QueryFn;
      args[last] = function (this: unknown, ...results: unknown[]) {
        observe();
        return callback.apply(this, results);
      };
    }
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
