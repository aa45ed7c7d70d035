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
  /**
   * How long a query waits for a connection (a new one, or a free one of the pool's) before it
   * fails, so that requests answer 503 instead of hanging when the database is gone
   * (`DATABASE_CONNECT_TIMEOUT`, default 5 s).
   */
  connectTimeoutMs?: number;
}

/**
 * The one data source. Schema changes only through the committed migrations (never
 * `synchronize`); the same entities, migrations and SQL serve the embedded and external database.
 */
export function createDataSource({
  url,
  poolSize,
  applicationName = 'interlock-api',
  connectTimeoutMs = 5_000,
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
      connectionTimeoutMillis: connectTimeoutMs,
      idleTimeoutMillis: 30_000,
      application_name: applicationName,
    },
  });
}
