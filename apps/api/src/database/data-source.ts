import { DataSource } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';
import { SnakeNamingStrategy } from './snake-naming.strategy';

export interface DataSourceSettings {
  url: string;
  /** 1 on the embedded database: its connections share one session. */
  poolSize: number;
  /** What `pg_stat_activity` shows for these connections. */
  applicationName?: string;
}

/**
 * The one data source. Schema changes only through the committed migrations (never
 * `synchronize`); the same entities, migrations and SQL serve the embedded and external database.
 */
export function createDataSource({
  url,
  poolSize,
  applicationName = 'interlock-api',
}: DataSourceSettings): DataSource {
  return new DataSource({
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    namingStrategy: new SnakeNamingStrategy(),
    synchronize: false,
    migrationsRun: false,
    installExtensions: false,
    logging: false,
    poolSize,
    extra: {
      // Fail fast when the database is gone, so requests answer 503 instead of hanging.
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
      application_name: applicationName,
    },
  });
}
