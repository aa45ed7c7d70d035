import { DataSource, MigrationExecutor, QueryRunner } from 'typeorm';

/** The advisory lock every Interlock instance takes around migrating: ('ilck', 1). */
const LOCK_KEY = [0x696c636b, 1] as const;
/** How often a waiting instance tries the lock again. */
const POLL_MS = 200;

export interface MigrationLog {
  info(message: string): void;
}

export class MigrationLockLostError extends Error {
  constructor() {
    super(
      'The migration lock is not held by the session that migrates: the connection goes through a ' +
        'transaction-pooling proxy. Point DATABASE_DIRECT_URL at Postgres itself (not PgBouncer in transaction mode).',
    );
    this.name = 'MigrationLockLostError';
  }
}

/**
 * Applies pending migrations under a session-level advisory lock, so that instances starting
 * together migrate once: the first takes the lock and migrates; the others wait, then find
 * nothing pending. The lock is held by the very session that runs the migrations, so it cannot
 * outlive them (a dropped connection releases it and stops the migrating with it).
 *
 * Waiters poll with `pg_try_advisory_lock` rather than blocking in `pg_advisory_lock`: a
 * statement blocked on a lock holds a snapshot, and `CREATE INDEX CONCURRENTLY` in the
 * migrations waits for every older snapshot in the database — it would wait forever for the
 * instance that waits for it. Between polls a waiter holds no snapshot.
 *
 * `dataSource` must reach Postgres directly (a transaction pooler keeps no session between
 * statements, so the lock would not be the migrating session's).
 */
export function migrateUnderLock(dataSource: DataSource, log: MigrationLog): Promise<string[]> {
  return inSession(dataSource, async (runner) => {
    // The common case, a restart on a migrated database, reads one table and takes no lock.
    if ((await new MigrationExecutor(dataSource, runner).getPendingMigrations()).length === 0)
      return [];
    return holdingLock(runner, log, async () => {
      const executor = new MigrationExecutor(dataSource, runner);
      executor.transaction = 'each';
      const applied = await executor.executePendingMigrations();
      if (applied.length > 0)
        log.info(
          `applied ${applied.length} migration(s): ${applied.map((m) => m.name).join(', ')}`,
        );
      return applied.map((m) => m.name);
    });
  });
}

/** The audit log's tables: the service's role only reads them and appends (its triggers keep heads and words). */
const AUDIT_GRANTS = [
  `REVOKE UPDATE, DELETE, TRUNCATE ON audit_log_entries FROM %I`,
  `REVOKE DELETE, TRUNCATE ON audit_log_heads, audit_log_words FROM %I`,
];

/**
 * Gives the service's role (`DATABASE_URL`'s, when migrations run as another: `DATABASE_MIGRATION_URL`)
 * what the service does and nothing more, under the migration lock (concurrent GRANTs on one
 * object fail): using the schema, reading and writing every table and sequence — the audit log's
 * tables only read and appended to — and owning nothing, so it cannot alter a table, disable a
 * trigger or replace a function. Run at every start after migrating: new tables are covered.
 */
export function grantServiceRoleUnderLock(
  dataSource: DataSource,
  role: string,
  log: MigrationLog,
): Promise<void> {
  return inSession(dataSource, (runner) =>
    holdingLock(runner, log, async () => {
      await runner.startTransaction();
      try {
        const [{ sql }]: { sql: string }[] = await runner.query(
          `SELECT string_agg(format(s, $1::text), '; ') AS sql FROM unnest($2::text[]) AS s`,
          [
            role,
            [
              `GRANT USAGE ON SCHEMA public TO %I`,
              `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO %I`,
              `GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO %I`,
              ...AUDIT_GRANTS,
            ],
          ],
        );
        await runner.query(sql);
        await runner.commitTransaction();
      } catch (error) {
        if (runner.isTransactionActive) await runner.rollbackTransaction();
        throw error;
      }
      log.info(`granted the service's role ${role} its privileges (it owns nothing)`);
    }),
  );
}

/**
 * Reverts the last migration under the same lock (the migrate CLI). A migration that declares
 * `transaction = false` (concurrent index builds) is reverted outside a transaction too.
 */
export function revertLastUnderLock(dataSource: DataSource, log: MigrationLog): Promise<void> {
  return inSession(dataSource, (runner) =>
    holdingLock(runner, log, async () => {
      // Newest first, the order undoLastMigration picks from.
      const [last] = await new MigrationExecutor(dataSource, runner).getExecutedMigrations();
      const migration = dataSource.migrations.find((m) => m.name === last?.name);
      const executor = new MigrationExecutor(dataSource, runner);
      executor.transaction = migration?.transaction === false ? 'none' : 'each';
      await executor.undoLastMigration();
    }),
  );
}

/** `work` on a connection of its own (one server session: the lock's), released afterwards. */
async function inSession<T>(
  dataSource: DataSource,
  work: (runner: QueryRunner) => Promise<T>,
): Promise<T> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    return await work(runner);
  } finally {
    await runner.release();
  }
}

/** `work` while `runner`'s session holds the migration lock, released however it ends. */
async function holdingLock<T>(
  runner: QueryRunner,
  log: MigrationLog,
  work: () => Promise<T>,
): Promise<T> {
  await acquire(runner, log);
  try {
    return await work();
  } finally {
    await release(runner);
  }
}

async function acquire(runner: QueryRunner, log: MigrationLog): Promise<void> {
  let logged = false;
  for (;;) {
    const [{ locked }]: { locked: boolean }[] = await runner.query(
      'SELECT pg_try_advisory_lock($1, $2) AS locked',
      [...LOCK_KEY],
    );
    if (locked) break;
    if (!logged) log.info('another instance is migrating the database: waiting for it');
    logged = true;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  // Through a transaction pooler the next statement may run in another server session.
  const [{ held }]: { held: boolean }[] = await runner.query(
    `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()
       AND classid = $1::int::oid AND objid = $2::int::oid AND objsubid = 2 AND granted) AS held`,
    [...LOCK_KEY],
  );
  if (!held) {
    await release(runner);
    throw new MigrationLockLostError();
  }
}

/**
 * Releases the lock. On a direct connection the first unlock does it; through a transaction
 * pooler (refused above, but the lock was taken by then) each statement may land on another
 * server session, so try a few times rather than leave the lock to block every later start.
 */
async function release(runner: QueryRunner): Promise<void> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const rows: { unlocked: boolean }[] = await runner
      .query('SELECT pg_advisory_unlock($1, $2) AS unlocked', [...LOCK_KEY])
      .catch(() => [{ unlocked: true }]);
    if (rows[0]?.unlocked) return;
  }
}
