import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Latency buckets (seconds) for requests and SQL statements: 1 ms to 10 s. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** A scrape-time reading of state kept elsewhere (the database, the pool); may fail. */
export type Collector = () => Promise<void> | void;

/**
 * Every series the service exposes (SPEC §8g), in one registry of its own — not prom-client's
 * global one, so that two apps in one process (the e2e tests) never share series. The names are
 * the contract with `deploy/prometheus/alerts.yaml` and `deploy/grafana/interlock.json`. No label
 * carries an id: routes are templates, jobs and outcomes are closed sets.
 */
export class Metrics {
  readonly registry = new Registry();

  readonly httpRequests = new Counter({
    name: 'interlock_http_requests_total',
    help: 'HTTP requests answered, by route template, method and status class (aborted: the client left before an answer).',
    labelNames: ['route', 'method', 'status_class'] as const,
    registers: [this.registry],
  });
  readonly httpDuration = new Histogram({
    name: 'interlock_http_request_duration_seconds',
    help: 'Time from the request to the last byte of the answer; event streams and long polls (waitSeconds) are left out: they last as long as the client or a person makes them.',
    labelNames: ['route', 'method', 'status_class'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly httpInFlight = new Gauge({
    name: 'interlock_http_requests_in_flight',
    help: 'Requests being served now, by route template (long-poll waits included).',
    labelNames: ['route'] as const,
    registers: [this.registry],
  });
  readonly httpStreamsOpen = new Gauge({
    name: 'interlock_http_streams_open',
    help: 'Server-sent event streams open now (Live View, organisation events), by route template.',
    labelNames: ['route'] as const,
    registers: [this.registry],
  });

  readonly httpLongPollsOpen = new Gauge({
    name: 'interlock_http_long_polls_open',
    help: 'Long polls (GET with waitSeconds above 0) held now, waiting for an answer, by route template.',
    labelNames: ['route'] as const,
    registers: [this.registry],
  });

  readonly dbPoolConnections = new Gauge({
    name: 'interlock_db_pool_connections',
    help: 'Connections of the database pool, in use or idle.',
    labelNames: ['state'] as const,
    registers: [this.registry],
  });
  readonly dbPoolWaiting = new Gauge({
    name: 'interlock_db_pool_waiting',
    help: 'Callers waiting for a connection of the database pool.',
    registers: [this.registry],
  });
  readonly dbPoolMax = new Gauge({
    name: 'interlock_db_pool_max',
    help: 'The most connections the database pool opens.',
    registers: [this.registry],
  });
  readonly dbQueryDuration = new Histogram({
    name: 'interlock_db_query_duration_seconds',
    help: 'SQL statements on the pool, by the kind of statement (its first keyword).',
    labelNames: ['statement'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  readonly busProbeRoundTrip = new Histogram({
    name: 'interlock_notification_bus_lag_seconds',
    help: "Notification-bus lag: from an instance's NOTIFY to its own LISTEN receiving it (measured every heartbeat).",
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });
  readonly busHealthy = new Gauge({
    name: 'interlock_notification_bus_healthy',
    help: '1 while this instance may trust its caches (its listener proved within the lease that it receives), else 0.',
    registers: [this.registry],
  });

  readonly jobRounds = new Counter({
    name: 'interlock_job_rounds_total',
    help: 'Rounds of each job worker: busy (it asked for another round at once), idle, failed.',
    labelNames: ['worker', 'result'] as const,
    registers: [this.registry],
  });
  readonly jobRoundDuration = new Histogram({
    name: 'interlock_job_round_duration_seconds',
    help: 'How long a job worker round took.',
    labelNames: ['worker'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly jobLastRound = new Gauge({
    name: 'interlock_job_worker_last_round_timestamp_seconds',
    help: 'When each job worker last finished a round (Unix time); a worker that stopped going round falls behind.',
    labelNames: ['worker'] as const,
    registers: [this.registry],
  });
  readonly periodicJobRuns = new Counter({
    name: 'interlock_job_runs_total',
    help: 'Runs of each periodic job on this instance, ok or failed.',
    labelNames: ['job', 'result'] as const,
    registers: [this.registry],
  });
  readonly periodicJobDuration = new Histogram({
    name: 'interlock_job_run_duration_seconds',
    help: 'How long a periodic job run took.',
    labelNames: ['job'] as const,
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300],
    registers: [this.registry],
  });
  readonly jobLag = new Gauge({
    name: 'interlock_job_lag_seconds',
    help: 'How far past its due time each periodic job is (0 when not due); the same on every instance.',
    labelNames: ['job'] as const,
    registers: [this.registry],
  });

  readonly webhookAttempts = new Counter({
    name: 'interlock_webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome: succeeded, retrying (failed, retry scheduled), failed (no attempt left).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly webhookAttemptDuration = new Histogram({
    name: 'interlock_webhook_delivery_duration_seconds',
    help: 'How long a webhook delivery attempt took, connection to last byte.',
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  readonly webhookOutboxDepth = new Gauge({
    name: 'interlock_webhook_outbox_depth',
    help: 'Webhook deliveries not finished: due now or later, being delivered, or paused (their webhook is disabled); the same on every instance.',
    labelNames: ['state'] as const,
    registers: [this.registry],
  });
  readonly webhookOutboxOldestDue = new Gauge({
    name: 'interlock_webhook_outbox_oldest_due_seconds',
    help: 'How long the longest-waiting due webhook delivery has been due (0 when none is); the same on every instance.',
    registers: [this.registry],
  });

  readonly interruptsOpen = new Gauge({
    name: 'interlock_interrupts_open',
    help: 'Open interrupts across all organisations, by how long they have been open; the same on every instance.',
    labelNames: ['age'] as const,
    registers: [this.registry],
  });

  readonly collectorErrors = new Counter({
    name: 'interlock_metrics_collector_errors_total',
    help: 'Scrape-time readings that failed (the series they feed keep their last value).',
    labelNames: ['collector'] as const,
    registers: [this.registry],
  });

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
}
