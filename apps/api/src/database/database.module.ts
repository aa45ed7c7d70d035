import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import { DatabaseConnection } from './database-connection';
import { PreparedReads } from './prepared-reads';
import { LOGGER } from '../logging/logger.module';
import type { Logger } from 'pino';

@Global()
@Module({
  providers: [
    {
      provide: DatabaseConnection,
      useFactory: (config: AppConfig, logger: Logger) =>
        DatabaseConnection.open(config, { log: { info: (message) => logger.info(message) } }),
      inject: [APP_CONFIG, LOGGER],
    },
    {
      provide: DataSource,
      useFactory: (connection: DatabaseConnection) => connection.dataSource,
      inject: [DatabaseConnection],
    },
    {
      provide: PreparedReads,
      // Only where each pooled connection is a session of its own (see PreparedReads): an
      // external database whose pool goes to Postgres itself (no separate DATABASE_DIRECT_URL).
      // On, or loudly off: the start-up log says which, and why.
      useFactory: (connection: DatabaseConnection, logger: Logger) => {
        const off = (reason: string) => {
          logger.info(`named prepared statements: off (${reason})`);
          return new PreparedReads(connection.dataSource, false, reason);
        };
        if (connection.mode === 'embedded')
          return off('the embedded database: its connections share one session');
        if (connection.directUrl !== connection.url)
          return off('DATABASE_DIRECT_URL is set: the pool may be a transaction pooler');
        const reads = new PreparedReads(connection.dataSource, true, undefined, {
          onCapReached: (cap, sql) =>
            logger.warn(
              { cap, sql: sql.slice(0, 200) },
              `named prepared statements: ${cap} distinct statements are named, the most kept; statements past them run unnamed (a query that writes values into its text makes a new statement per call)`,
            ),
          onFallback: (reason, sql) =>
            logger.warn(
              { reason, sql: sql.slice(0, 200) },
              `named prepared statements: a transaction's statement ran unnamed (${reason}); later ones are counted (interlock_db_unnamed_fallbacks), not logged`,
            ),
        });
        if (reads.startFailure !== undefined) {
          logger.error(
            { problem: reads.startFailure },
            'named prepared statements: asked to be on, but the hot reads run unnamed through the driver (database/prepared-reads.ts names statements on the pool TypeORM keeps as driver.master; an upgrade may have moved it)',
          );
          return off(reads.startFailure);
        }
        logger.info('named prepared statements: on');
        return reads;
      },
      inject: [DatabaseConnection, LOGGER],
    },
  ],
  exports: [DatabaseConnection, DataSource, PreparedReads],
})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(@Inject(DatabaseConnection) private readonly connection: DatabaseConnection) {}

  async onApplicationShutdown(): Promise<void> {
    await this.connection.close();
  }
}
