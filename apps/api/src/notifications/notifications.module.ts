import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import { DatabaseConnection } from '../database/database-connection';
import { LOGGER } from '../logging/logger.module';
import type { Logger } from 'pino';
import {
  InProcessNotificationBus,
  NotificationBus,
  PostgresNotificationBus,
} from './notification-bus';
import { StreamAdmission } from './stream-admission';

@Global()
@Module({
  providers: [
    StreamAdmission,
    {
      provide: NotificationBus,
      inject: [DatabaseConnection, DataSource, LOGGER, APP_CONFIG],
      useFactory: async (
        connection: DatabaseConnection,
        dataSource: DataSource,
        logger: Logger,
        config: AppConfig,
      ) => {
        if (connection.mode === 'embedded') return new InProcessNotificationBus();
        // LISTEN (and acknowledgements) on a direct connection; heartbeats on the control
        // connections; a change's NOTIFY through the pool.
        const bus = new PostgresNotificationBus(
          config.databaseDirectUrl ?? connection.url,
          logger,
          (sql, params) => dataSource.query(sql, params),
          undefined,
          (sql, params) => connection.controlQuery(sql, params),
        );
        await bus.start();
        return bus;
      },
    },
  ],
  exports: [NotificationBus, StreamAdmission],
})
export class NotificationsModule implements OnApplicationShutdown {
  constructor(@Inject(NotificationBus) private readonly bus: NotificationBus) {}

  async onApplicationShutdown(): Promise<void> {
    await this.bus.close();
  }
}
