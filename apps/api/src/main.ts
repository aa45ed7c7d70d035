import 'reflect-metadata';
import { ConfigError, configFromEnvironment } from './config/app-config';
import { createApp } from './app.factory';
import { McpService } from './mcp/mcp.service';

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
  await app.listen(config.port, config.host);
  const server = app.getHttpServer();
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.port;
  logger.info(
    { port, database: config.databaseUrl === undefined ? `embedded (${config.dataDir})` : 'external' },
    `Interlock API listening on http://localhost:${port}`,
  );

  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: no new connections, draining in-flight requests');
    setTimeout(() => {
      logger.error('shutdown timed out; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs).unref();
    // MCP tools waiting up to 50 s for a human answer "pending" at once, so they do not hold the drain.
    app.get(McpService).stopWaiting();
    // server.close stops accepting and closes idle keep-alive connections; busy ones close
    // after their response. Then Nest closes the pool and the embedded database.
    server.close(() => {
      app.close().then(
        () => {
          logger.info('stopped');
          process.exit(0);
        },
        (error: unknown) => {
          logger.error({ err: error }, 'error while stopping');
          process.exit(1);
        },
      );
    });
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

bootstrap().catch((error: unknown) => {
  process.stderr.write(`Interlock API failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
