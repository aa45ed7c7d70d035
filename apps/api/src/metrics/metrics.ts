import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Latency buckets (seconds) for requests and SQL statements: 1 ms to 10 s. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Buckets (seconds) for work that leaves the process: a webhook, an email. */
const DELIVERY_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** A scrape-time reading of state kept elsewhere (the database, the pool); may fail. */
export type Collector = () => Promise<void> | void;

/** What an outbox's series say (their help texts). */
interface OutboxHelp {
  deliveries: string;
  duration: string;
  depth: string;
  oldestDue: string;
}

/** An outbox's series (webhooks, notifications): attempts and their duration, depth, oldest due. */
export interface OutboxSeries {
  attempts: Counter<'outcome'>;
  attemptDuration: Histogram;
  depth: Gauge<'state'>;
  oldestDue: Gauge;
}

/**
 * Every series the service exposes (SPEC §8g), in one registry of its own — not prom-client's
 * global one, so that two apps in one process (the e2e tests) never share series. The names are
 * the contract with `deploy/prometheus/alerts.yaml` and `deploy/grafana/interlock.json`. No label
 * carries an id: routes are templates, jobs and outcomes are closed sets.
 *
 * One line per series: its kind, name, help, labels (and buckets), in the order of the README's
 * table.
 */
export class Metrics {
  readonly registry = new Registry();

  // HTTP, measured at the Node server (http-metrics.ts).
  readonly httpRequests = this.counter(
    'interlock_http_requests_total',
    'HTTP requests answered, by route template, method and status class (aborted: the client left before an answer).',
    ['route', 'method', 'status_class'],
  );
  readonly httpDuration = this.histogram(
    'interlock_http_request_duration_seconds',
    'Time from the request to the last byte of the answer; event streams and long polls (waitSeconds) are left out: they last as long as the client or a person makes them.',
    ['route', 'method', 'status_class'],
    LATENCY_BUCKETS,
  );
  readonly httpInFlight = this.gauge(
    'interlock_http_requests_in_flight',
    'Requests being served now, by route template (long-poll waits included).',
    ['route'],
  );
  readonly httpStreamsOpen = this.gauge(
    'interlock_http_streams_open',
    'Server-sent event streams open now (Live View, organisation events), by route template.',
    ['route'],
  );
  readonly httpLongPollsOpen = this.gauge(
    'interlock_http_long_polls_open',
    'Long polls (GET with waitSeconds above 0) held now, waiting for an answer, by route template.',
    ['route'],
  );

  // The database pool (database-metrics.ts).
  readonly dbPoolConnections = this.gauge(
    'interlock_db_pool_connections',
    'Connections of the database pool, in use or idle.',
    ['state'],
  );
  readonly dbPoolWaiting = this.gauge(
    'interlock_db_pool_waiting',
    'Callers waiting for a connection of the database pool.',
  );
  readonly dbPoolMax = this.gauge(
    'interlock_db_pool_max',
    'The most connections the database pool opens.',
  );
  readonly dbQueryDuration = this.histogram(
    'interlock_db_query_duration_seconds',
    'SQL statements on the pool, by the kind of statement (its first keyword).',
    ['statement'],
    LATENCY_BUCKETS,
  );

  // The hot reads' named prepared statements (database/prepared-reads.ts; database-metrics.ts).
  readonly dbNamedStatementsOn = this.gauge(
    'interlock_db_named_statements_on',
    '1 while the hot reads run as named prepared statements; 0 when they run unnamed (the embedded database, DATABASE_DIRECT_URL set, or no pool of its own to name them on: the log says which).',
  );
  readonly dbNamedStatements = this.gauge(
    'interlock_db_named_statements',
    'Distinct statement texts this instance runs as named prepared statements.',
  );
  readonly dbNamedStatementsMax = this.gauge(
    'interlock_db_named_statements_max',
    'The most distinct statement texts named; texts past them run unnamed.',
  );
  readonly dbUnnamedStatements = this.gauge(
    'interlock_db_unnamed_statements',
    'Distinct statement texts that ran unnamed because the named ones reached their cap (0 in a healthy instance; a query writing values into its text makes a new one per call).',
  );
  readonly dbUnnamedFallbacks = this.gauge(
    'interlock_db_unnamed_fallbacks',
    "Statements of a transaction that ran unnamed because the transaction's connection could not be reached (0 in a healthy instance; the log's warning names the first).",
  );

  // The notification bus between instances.
  readonly busProbeRoundTrip = this.histogram(
    'interlock_notification_bus_lag_seconds',
    "Notification-bus lag: from an instance's NOTIFY to its own LISTEN receiving it (measured every heartbeat).",
    [],
    [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  );
  readonly busHealthy = this.gauge(
    'interlock_notification_bus_healthy',
    '1 while this instance may trust its caches (its listener proved within the lease that it receives), else 0.',
  );

  // The job runner's workers and the periodic jobs.
  readonly jobRounds = this.counter(
    'interlock_job_rounds_total',
    'Rounds of each job worker: busy (it asked for another round at once), idle, failed.',
    ['worker', 'result'],
  );
  readonly jobRoundDuration = this.histogram(
    'interlock_job_round_duration_seconds',
    'How long a job worker round took.',
    ['worker'],
    LATENCY_BUCKETS,
  );
  readonly jobLastRound = this.gauge(
    'interlock_job_worker_last_round_timestamp_seconds',
    'When each job worker last finished a round (Unix time); a worker that stopped going round falls behind.',
    ['worker'],
  );
  readonly periodicJobRuns = this.counter(
    'interlock_job_runs_total',
    'Runs of each periodic job on this instance, ok or failed.',
    ['job', 'result'],
  );
  readonly periodicJobDuration = this.histogram(
    'interlock_job_run_duration_seconds',
    'How long a periodic job run took.',
    ['job'],
    [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300],
  );
  readonly jobLag = this.gauge(
    'interlock_job_lag_seconds',
    'How far past its due time each periodic job is (0 when not due); the same on every instance.',
    ['job'],
  );

  // The outboxes: webhooks, and notifications (email).
  readonly webhookOutbox = this.outbox('webhook', {
    deliveries:
      'Webhook delivery attempts by outcome: succeeded, retrying (failed, retry scheduled), failed (no attempt left).',
    duration: 'How long a webhook delivery attempt took, connection to last byte.',
    depth:
      'Webhook deliveries not finished: due now or later, being delivered, or paused (their webhook is disabled); the same on every instance.',
    oldestDue:
      'How long the longest-waiting due webhook delivery has been due (0 when none is); the same on every instance.',
  });
  readonly notificationOutbox = this.outbox('notification', {
    deliveries:
      'Notification messages (an immediate notification, a digest, an invitation) by outcome: sent, logged (email is off), retrying (failed, retry scheduled), failed (no attempt left, or the recipient left).',
    duration: 'How long handing one message to the mail transport took.',
    depth:
      'Notifications not finished: due now, due later (a retry, a digest), or being sent; the same on every instance.',
    oldestDue:
      'How long the longest-waiting due notification has been due (0 when none is); the same on every instance.',
  });

  // Interrupts and argus.
  readonly interruptsOpen = this.gauge(
    'interlock_interrupts_open',
    'Open interrupts across all organisations, by how long they have been open; the same on every instance.',
    ['age'],
  );
  readonly interruptsPastDeadline = this.gauge(
    'interlock_interrupts_open_past_deadline',
    'Open interrupts whose deadline has passed (the expiry job has not closed them yet); the same on every instance.',
  );
  readonly argusOutcomes = this.counter(
    'interlock_argus_outcomes_total',
    "Argus's receipts for new interrupts' actions, by the rule's outcome and what became of it: enforced, shadow, or skipped_<reason> (an enforced outcome not applied).",
    ['outcome', 'result'],
  );
  readonly argusFailures = this.counter(
    'interlock_argus_failures_total',
    'New interrupts argus could not classify (the rules could not be read or evaluated): they went to a person whole.',
  );
  readonly argusBreakerTrips = this.counter(
    'interlock_argus_breaker_trips_total',
    "New interrupts whose automatic decisions the circuit breaker dropped (argus rejected the key's actions too often).",
  );

  readonly collectorErrors = this.counter(
    'interlock_metrics_collector_errors_total',
    'Scrape-time readings that failed (the series they feed keep their last value).',
    ['collector'],
  );

  private readonly collectors = new Map<string, Collector>();

  constructor() {
    // Process metrics under their usual names (event-loop lag, heap, GC, CPU, file descriptors).
    collectDefaultMetrics({ register: this.registry });
  }

  /** Adds a reading taken before each scrape; `name` labels its failures. */
  addCollector(name: string, collector: Collector): void {
    this.collectors.set(name, collector);
  }

  /** The exposition text: every collector's reading first, each failure counted, never thrown. */
  async render(): Promise<string> {
    await Promise.all(
      [...this.collectors].map(async ([name, collect]) => {
        try {
          await collect();
        } catch {
          this.collectorErrors.inc({ collector: name });
        }
      }),
    );
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /**
   * An outbox's four series, named after it: `interlock_<kind>_deliveries_total{outcome}`,
   * `interlock_<kind>_delivery_duration_seconds`, `interlock_<kind>_outbox_depth{state}` and
   * `interlock_<kind>_outbox_oldest_due_seconds`.
   */
  private outbox(kind: string, help: OutboxHelp): OutboxSeries {
    return {
      attempts: this.counter(`interlock_${kind}_deliveries_total`, help.deliveries, ['outcome']),
      attemptDuration: this.histogram(
        `interlock_${kind}_delivery_duration_seconds`,
        help.duration,
        [],
        DELIVERY_BUCKETS,
      ),
      depth: this.gauge(`interlock_${kind}_outbox_depth`, help.depth, ['state']),
      oldestDue: this.gauge(`interlock_${kind}_outbox_oldest_due_seconds`, help.oldestDue),
    };
  }

  private counter<L extends string = never>(
    name: string,
    help: string,
    labelNames: readonly L[] = [],
  ): Counter<L> {
    return new Counter<L>({ name, help, labelNames, registers: [this.registry] });
  }

  private gauge<L extends string = never>(
    name: string,
    help: string,
    labelNames: readonly L[] = [],
  ): Gauge<L> {
    return new Gauge<L>({ name, help, labelNames, registers: [this.registry] });
  }

  private histogram<L extends string = never>(
    name: string,
    help: string,
    labelNames: readonly L[],
    buckets: number[],
  ): Histogram<L> {
    return new Histogram<L>({ name, help, labelNames, buckets, registers: [this.registry] });
  }
}
