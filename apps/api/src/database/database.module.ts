import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import { DatabaseConnection } from './database-connection';
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
  ],
  exports: [DatabaseConnection, DataSource],
})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(@Inject(DatabaseConnection) private readonly connection: DatabaseConnection) {}

  async onApplicationShutdown(): Promise<void> {
    await this.connection.close();
  }
}
