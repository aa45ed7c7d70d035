import type { Server } from 'node:http';
import { Inject, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost, ModulesContainer } from '@nestjs/core';
import { DataSource } from 'typeorm';
import type { Logger } from 'pino';
import { declaredRoutesIn } from '../auth/route-declarations.util';
import { PreparedReads } from '../database/prepared-reads';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import {
  countOpenInterruptsByAge,
  countOpenPastDeadline,
  OPEN_AGE_BUCKETS,
} from '../interrupts/open-interrupts-query.util';
import { readPeriodicJobLag } from '../jobs/job-lag-query.util';
import { LOGGER } from '../logging/logger.module';
import { NotificationBus } from '../notifications/notification-bus';
import { readNotificationOutboxStats } from '../notify/notification-outbox-stats-query.util';
import { readOutboxStats } from '../webhooks/webhook-outbox-stats-query.util';
import { instrumentDatabase, instrumentPreparedReads } from './database-metrics';
import { instrumentHttpServer } from './http-metrics';
import {
  argusClassificationChannel,
  type ArgusClassificationRecord,
  busProbeChannel,
  type BusProbeRecord,
  jobRoundChannel,
  type JobRoundRecord,
  notificationAttemptChannel,
  type NotificationAttemptRecord,
  periodicJobRunChannel,
  type PeriodicJobRunRecord,
  webhookAttemptChannel,
  type WebhookAttemptRecord,
} from './instrumentation-channels';
import type { Metrics, OutboxSeries } from './metrics';
import { startMetricsServer } from './metrics-server';
import { RouteTemplates } from './route-templates';

/** Readings that cost a query are taken at most this often per instance, however often scraped. */
const DATABASE_READING_MS = 10_000;

/**
 * Prometheus metrics (SPEC §8g), only when `METRICS_PORT` is set: then the HTTP server, the pool,
 * the job runner, the webhook and notification workers, argus and the notification bus are
 * instrumented, and a listener of its own serves `GET /metrics`. Without it nothing is
 * instrumented and nothing listens, and prom-client is never loaded (issue 28: RSS).
 */
@Module({})
export class MetricsModule implements OnApplicationBootstrap, OnApplicationShutdown {
  private server: Server | undefined;
  /** The metrics listener's port once it listens (METRICS_PORT, or the one chosen for 0). */
  port: number | undefined;
  private readonly stops: (() => void)[] = [];

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(HttpAdapterHost) private readonly adapterHost: HttpAdapterHost,
    @Inject(ModulesContainer) private readonly modules: ModulesContainer,
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(PreparedReads) private readonly reads: PreparedReads,
    @Inject(NotificationBus) private readonly bus: NotificationBus,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.metricsPort === undefined) return;
    const { Metrics } = await import('./metrics');
    const metrics = new Metrics();
    const routes = new RouteTemplates(declaredRoutesIn(this.modules));
    this.stops.push(
      instrumentHttpServer(this.adapterHost.httpAdapter.getHttpServer() as Server, metrics, routes),
    );
    instrumentDatabase(this.dataSource, metrics);
    instrumentPreparedReads(this.reads, metrics);
    this.subscribe(metrics);

    metrics.addCollector('notification-bus', () =>
      metrics.busHealthy.set(this.bus.healthy ? 1 : 0),
    );
    metrics.addCollector(
      'job-lag',
      everyAtMost(DATABASE_READING_MS, async () => {
        for (const row of await readPeriodicJobLag(this.dataSource))
          metrics.jobLag.set({ job: row.name }, row.lag_seconds);
      }),
    );
    metrics.addCollector(
      'webhook-outbox',
      outboxReading(metrics.webhookOutbox, OUTBOX_STATES.webhook, () =>
        readOutboxStats(this.dataSource),
      ),
    );
    metrics.addCollector(
      'notification-outbox',
      outboxReading(metrics.notificationOutbox, OUTBOX_STATES.notification, () =>
        readNotificationOutboxStats(this.dataSource),
      ),
    );
    metrics.addCollector(
      'interrupts-open',
      everyAtMost(DATABASE_READING_MS, async () => {
        const counts = await countOpenInterruptsByAge(this.dataSource);
        for (const age of OPEN_AGE_BUCKETS) metrics.interruptsOpen.set({ age }, counts[age]);
        metrics.interruptsPastDeadline.set(await countOpenPastDeadline(this.dataSource));
      }),
    );

    const { server, port } = await startMetricsServer(
      metrics,
      this.config.metricsPort,
      this.config.host,
    );
    this.server = server;
    this.port = port;
    this.logger.info(
      { metricsPort: port },
      `metrics on http://${this.config.host}:${port}/metrics`,
    );
  }

  async onApplicationShutdown(): Promise<void> {
    for (const stop of this.stops.splice(0)) stop();
    const server = this.server;
    this.server = undefined;
    if (server === undefined) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private subscribe(metrics: Metrics): void {
    const on = <T>(channel: typeof jobRoundChannel, handle: (record: T) => void) => {
      const listener = (message: unknown) => handle(message as T);
      channel.subscribe(listener);
      this.stops.push(() => channel.unsubscribe(listener));
    };
    on<JobRoundRecord>(jobRoundChannel, ({ worker, result, durationMs }) => {
      metrics.jobRounds.inc({ worker, result });
      metrics.jobRoundDuration.observe({ worker }, durationMs / 1000);
      metrics.jobLastRound.set({ worker }, Date.now() / 1000);
    });
    on<PeriodicJobRunRecord>(periodicJobRunChannel, ({ job, result, durationMs }) => {
      metrics.periodicJobRuns.inc({ job, result });
      metrics.periodicJobDuration.observe({ job }, durationMs / 1000);
    });
    on<WebhookAttemptRecord>(webhookAttemptChannel, ({ outcome, durationMs }) => {
      metrics.webhookOutbox.attempts.inc({ outcome });
      metrics.webhookOutbox.attemptDuration.observe(durationMs / 1000);
    });
    on<NotificationAttemptRecord>(notificationAttemptChannel, ({ outcome, durationMs }) => {
      metrics.notificationOutbox.attempts.inc({ outcome });
      // A logged message (email off) took no transport: no duration.
      if (durationMs > 0) metrics.notificationOutbox.attemptDuration.observe(durationMs / 1000);
    });
    on<ArgusClassificationRecord>(
      argusClassificationChannel,
      ({ failed, breakerTripped, receipts }) => {
        if (failed) metrics.argusFailures.inc();
        if (breakerTripped) metrics.argusBreakerTrips.inc();
        for (const { action, metadata } of receipts)
          metrics.argusOutcomes.inc({
            outcome: metadata.outcome,
            result: argusResult(action, metadata),
          });
      },
    );
    on<BusProbeRecord>(busProbeChannel, ({ roundTripMs }) =>
      metrics.busProbeRoundTrip.observe(roundTripMs / 1000),
    );
  }
}

/** What became of a receipt's outcome: a closed set, from the receipt alone. */
export function argusResult(
  action: string,
  receipt: ArgusClassificationRecord['receipts'][number]['metadata'],
): string {
  if (action === 'classification.shadowed' || receipt.mode === 'shadow') return 'shadow';
  if (receipt.enforced) return 'enforced';
  return receipt.skipped === undefined ? 'not_enforced' : `skipped_${receipt.skipped}`;
}

/** The states each outbox's depth is read in (its stats query's columns). */
const OUTBOX_STATES = {
  webhook: ['due', 'scheduled', 'delivering', 'paused'],
  notification: ['due', 'scheduled', 'sending'],
} as const;

/** An outbox's depth by state and its oldest due delivery, read at most every DATABASE_READING_MS. */
function outboxReading<S extends string>(
  series: OutboxSeries,
  states: readonly S[],
  read: () => Promise<Record<S | 'oldest_due_seconds', number>>,
): () => Promise<void> {
  return everyAtMost(DATABASE_READING_MS, async () => {
    const stats = await read();
    for (const state of states) series.depth.set({ state }, stats[state]);
    series.oldestDue.set(stats.oldest_due_seconds);
  });
}

/** Runs `read` when the last run is older than `ms` (or failed); otherwise keeps the last values. */
function everyAtMost(ms: number, read: () => Promise<void>): () => Promise<void> {
  let last = -Infinity;
  return async () => {
    if (performance.now() - last < ms) return;
    await read();
    last = performance.now();
  };
}
