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
      useFactory: (connection: DatabaseConnection) =>
        new PreparedReads(
          connection.dataSource,
          connection.mode === 'external' && connection.directUrl === connection.url,
        ),
      inject: [DatabaseConnection],
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
