// Before anything loads `pg` or `http`: OpenTelemetry patches them when traces are on.
import './tracing/start';
import 'reflect-metadata';
import { ConfigError, configFromEnvironment } from './config/app-config';
import { createApp } from './app.factory';
import { HttpDrain } from './health/http-drain';
import { startBanner } from './logging/banner';
import { isPrettyLog } from './logging/logger';
import { ServiceState } from './health/service-state';
import { McpService } from './mcp/mcp.service';
import { MetricsModule } from './metrics/metrics.module';
import { InterruptWaits } from './interrupts/interrupt-waits';
import { stopTracing } from './tracing/tracing';
import { tracingEnabled } from './tracing/spans';

async function bootstrap(): Promise<void> {
  let config;
  try {
    config = configFromEnvironment();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }

  const { app, logger } = await createApp(config);
  if (config.apiKeyPepperIsDefault) {
    logger.warn('API_KEY_PEPPER is not set: using the development pepper (refused in production)');
  }
  const server = app.getHttpServer();
  const drain = new HttpDrain(server);
  await app.listen(config.port, config.host);
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.port;
  logger.info(
    {
      port,
      database: config.databaseUrl === undefined ? `embedded (${config.dataDir})` : 'external',
    },
    `Interlock API listening on http://localhost:${port}`,
  );
  if (tracingEnabled())
    logger.info('traces on: OpenTelemetry over OTLP/HTTP (OTEL_EXPORTER_OTLP_ENDPOINT)');
  // On a terminal, a person started it: say where to go and how to stop, after the log lines.
  if (isPrettyLog(config)) process.stdout.write(startBanner(config, port, metricsPortOf(app)));

  // SIGTERM: readiness turns 503 at once; the instance keeps serving for the drain delay (every
  // response closing its connection) while the balancer's health checks take it out of rotation;
  // then it stops accepting, finishes what is in flight, closes the pool and exits 0.
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    app.get(ServiceState).beginDraining();
    drain.beginDraining();
    logger.info(
      { signal, drainDelayMs: config.shutdownDrainDelayMs },
      'shutting down: not ready; serving for the drain delay, then refusing new connections and finishing in-flight requests',
    );
    setTimeout(() => {
      logger.error('shutdown timed out; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs).unref();
    setTimeout(() => {
      logger.info('drain delay over: refusing new connections');
      // MCP tools waiting up to 50 s for a human answer "pending" at once, so they do not hold the drain.
      app.get(McpService).stopWaiting();
      // Requests held by ?waitSeconds answer the interrupt's current state at once, for the same reason.
      app.get(InterruptWaits).stopWaiting();
      // Event streams end once the server stops listening; then Nest closes the pool, the
      // notification bus (signing the instance off) and the embedded database.
      drain
        .close()
        .then(() => app.close())
        // The spans still buffered leave before the process does.
        .then(() => stopTracing())
        .then(
          () => {
            logger.info('stopped');
            process.exit(0);
          },
          (error: unknown) => {
            logger.error({ err: error }, 'error while stopping');
            process.exit(1);
          },
        );
    }, config.shutdownDrainDelayMs);
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

/** The metrics listener's port, when there is one (it may have been chosen by the system). */
function metricsPortOf(app: Awaited<ReturnType<typeof createApp>>['app']): number | undefined {
  return app.get(MetricsModule).port;
}

bootstrap().catch((error: unknown) => {
  process.stderr.write(
    `Interlock API failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
