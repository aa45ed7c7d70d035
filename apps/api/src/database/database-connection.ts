import type { EventEmitter } from 'node:events';
import { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { createDataSource } from './data-source';
import type { EmbeddedPostgres } from './embedded-postgres';
import {
  grantServiceRoleUnderLock,
  MigrationLog,
  migrateUnderLock,
  revertLastUnderLock,
} from './migrator';

/**
 * The open database: an external Postgres when `DATABASE_URL` is set, else the embedded one.
 * Opening applies pending migrations — on the direct connection (`DATABASE_DIRECT_URL`), under
 * an advisory lock, so instances starting together migrate once — and then opens the pool on
 * `DATABASE_URL` (which may be a transaction-pooling PgBouncer), and beside it the control
 * connections (`controlQuery`). Closing drains both and stops the embedded server.
 */
export class DatabaseConnection {
  private constructor(
    readonly dataSource: DataSource,
    /** The connection URL (the embedded server's loopback address in embedded mode). */
    readonly url: string,
    /** Postgres itself, for what needs a session of its own (LISTEN, migrations). */
    readonly directUrl: string,
    private readonly embedded: EmbeddedPostgres | undefined,
    private readonly control: Pool | undefined,
  ) {}

  /**
   * A statement on the control connections: two of their own on `DATABASE_URL`, beside the pool,
   * for the instance's own upkeep — the notification bus's heartbeat and the readiness probe, each
   * at most one statement at a time, so neither ever waits for a connection. The pool's 10
   * connections are what requests queue for (`DATABASE_CONNECT_TIMEOUT`, then 503): a herd of
   * waits ending together may hold them all for a moment, and a heartbeat queued behind it would
   * make the listener look deaf (a reconnect, every wait woken) and the instance unready. The
   * embedded database has one session: the pool's.
   */
  async controlQuery<T = unknown>(sql: string, params: unknown[] = []): Promise<T[]> {
    if (this.control === undefined) return this.dataSource.query(sql, params);
    return (await this.control.query(sql, params)).rows as T[];
  }

  get mode(): 'external' | 'embedded' {
    return this.embedded === undefined ? 'external' : 'embedded';
  }

  static async open(
    config: AppConfig,
    options: { migrate?: boolean; log?: MigrationLog } = {},
  ): Promise<DatabaseConnection> {
    const log = options.log ?? { info: () => undefined };
    const embedded =
      config.databaseUrl === undefined ? await startEmbedded(config.dataDir) : undefined;
    const url = embedded === undefined ? (config.databaseUrl as string) : embedded.url;
    const directUrl = embedded === undefined ? (config.databaseDirectUrl ?? url) : url;
    const connectTimeoutMs = config.databaseConnectTimeoutMs;
    const dataSource = createDataSource({
      url,
      poolSize: embedded === undefined ? 10 : 1,
      connectTimeoutMs,
    });
    try {
      if (options.migrate !== false && embedded === undefined) {
        const migrationUrl = config.databaseMigrationUrl;
        await withDirectDataSource(
          migrationUrl ?? directUrl,
          async (direct) => {
            await migrateUnderLock(direct, log);
            // Two roles (README: Security notes): the schema's owner migrates, the service's role owns nothing.
            if (migrationUrl !== undefined)
              await grantServiceRoleUnderLock(
                direct,
                decodeURIComponent(new URL(url).username),
                log,
              );
          },
          connectTimeoutMs,
        );
      }
      await dataSource.initialize();
      guardNewConnections(dataSource);
      // The embedded database is one process's (its lock file says so) and one session.
      if (options.migrate !== false && embedded !== undefined)
        await migrateUnderLock(dataSource, log);
      const control =
        embedded === undefined
          ? new Pool({
              connectionString: url,
              max: 2,
              connectionTimeoutMillis: connectTimeoutMs,
              idleTimeoutMillis: 30_000,
              // A statement that never answers (a half-open connection) must not stop the beats.
              query_timeout: 10_000,
              keepAlive: true,
              application_name: 'interlock-control',
            })
          : undefined;
      // An idle connection's error (the database restarting) is the next query's to report; a
      // new one gets a listener of its own, as the pool's do (guardNewConnections).
      control?.on('error', () => undefined);
      control?.on('connect', (client) => client.on('error', () => undefined));
      return new DatabaseConnection(dataSource, url, directUrl, embedded, control);
    } catch (error) {
      if (dataSource.isInitialized) await dataSource.destroy();
      await embedded?.stop();
      throw error;
    }
  }

  /** Undoes the last applied migration, under the migration lock, on the migration (or direct) connection. */
  async revertLastMigration(log: MigrationLog, migrationUrl?: string): Promise<void> {
    if (this.embedded !== undefined) return revertLastUnderLock(this.dataSource, log);
    await withDirectDataSource(migrationUrl ?? this.directUrl, (direct) =>
      revertLastUnderLock(direct, log),
    );
  }

  async close(): Promise<void> {
    try {
      await this.control?.end();
      if (this.dataSource.isInitialized) await this.dataSource.destroy();
    } finally {
      await this.embedded?.stop();
    }
  }
}

/** Runs `fn` on a one-connection data source of its own on the direct URL, then closes it. */
async function withDirectDataSource<T>(
  directUrl: string,
  fn: (direct: DataSource) => Promise<T>,
  connectTimeoutMs?: number,
): Promise<T> {
  const direct = createDataSource({
    url: directUrl,
    poolSize: 1,
    applicationName: 'interlock-migrate',
    connectTimeoutMs,
  });
  await direct.initialize();
  try {
    return await fn(direct);
  } finally {
    await direct.destroy();
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

/**
 * The embedded database, its module (PGlite, its socket server) loaded only then: a process on an
 * external Postgres never holds them (issue 28: RSS).
 */
async function startEmbedded(dataDir: string): Promise<EmbeddedPostgres> {
  const { EmbeddedPostgres } = await import('./embedded-postgres');
  return EmbeddedPostgres.start(dataDir);
}
