import type { EventEmitter } from 'node:events';
import type { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { createDataSource } from './data-source';
import { EmbeddedPostgres } from './embedded-postgres';

/**
 * The open database: an external Postgres when `DATABASE_URL` is set, else the embedded one.
 * Opening applies pending migrations; closing drains the pool and stops the embedded server.
 */
export class DatabaseConnection {
  private constructor(
    readonly dataSource: DataSource,
    /** The connection URL (the embedded server's loopback address in embedded mode). */
    readonly url: string,
    private readonly embedded: EmbeddedPostgres | undefined,
  ) {}

  get mode(): 'external' | 'embedded' {
    return this.embedded === undefined ? 'external' : 'embedded';
  }

  static async open(config: AppConfig, options: { migrate?: boolean } = {}): Promise<DatabaseConnection> {
    const embedded =
      config.databaseUrl === undefined ? await EmbeddedPostgres.start(config.dataDir) : undefined;
    const url = embedded === undefined ? (config.databaseUrl as string) : embedded.url;
    const dataSource = createDataSource({ url, poolSize: embedded === undefined ? 10 : 1 });
    try {
      await dataSource.initialize();
      guardNewConnections(dataSource);
      if (options.migrate !== false) await dataSource.runMigrations({ transaction: 'each' });
      return new DatabaseConnection(dataSource, url, embedded);
    } catch (error) {
      if (dataSource.isInitialized) await dataSource.destroy();
      await embedded?.stop();
      throw error;
    }
  }

  async close(): Promise<void> {
    try {
      if (this.dataSource.isInitialized) await this.dataSource.destroy();
    } finally {
      await this.embedded?.stop();
    }
  }
}

/**
 * A connection can fail in the instant between the pool handing it out and TypeORM listening on
 * it — Postgres stopping as it opens, with the first bytes after the handshake a FATAL: pg then
 * raises an 'error' event with no listener, which would crash the process. Every new client
 * gets a listener of its own (the pool's and TypeORM's still do the handling).
 */
function guardNewConnections(dataSource: DataSource): void {
  const pool = (dataSource.driver as unknown as { master?: EventEmitter }).master;
  pool?.on('connect', (client: EventEmitter) => client.on('error', () => undefined));
}
