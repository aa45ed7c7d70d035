import { mkdirSync, openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export class DataDirectoryLockedError extends Error {
  constructor(dataDir: string, pid: number) {
    super(
      `The embedded database in ${dataDir} is already open in another process (pid ${pid}). ` +
        'Stop that process, or set DATABASE_URL to use an external Postgres.',
    );
    this.name = 'DataDirectoryLockedError';
  }
}

/**
 * The embedded default: PGlite (Postgres compiled to WebAssembly) kept under `dataDir`, served
 * on a loopback port so TypeORM talks to it over the ordinary `pg` driver with the same SQL as
 * an external Postgres. One process only (a lock file refuses a second opener) and one query at
 * a time (every socket connection shares PGlite's single session).
 */
export class EmbeddedPostgres {
  private constructor(
    private readonly db: PGlite,
    private readonly server: PGLiteSocketServer,
    private readonly lockPath: string,
    readonly url: string,
  ) {}

  static async start(dataDir: string): Promise<EmbeddedPostgres> {
    mkdirSync(dataDir, { recursive: true });
    const lockPath = join(dataDir, 'embedded-postgres.lock');
    takeLock(lockPath, dataDir);
    try {
      // The extensions the migrations create must be loaded into PGlite up front.
      const db = await PGlite.create(join(dataDir, 'pglite'), { extensions: { btree_gin } });
      const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 8 });
      await server.start();
      return new EmbeddedPostgres(
        db,
        server,
        lockPath,
        `postgres://postgres@${server.getServerConn()}/postgres`,
      );
    } catch (error) {
      rmSync(lockPath, { force: true });
      throw error;
    }
  }

  /** Closes the socket, flushes and closes the database, and releases the lock. */
  async stop(): Promise<void> {
    try {
      await this.server.stop();
      await this.db.close();
    } finally {
      rmSync(this.lockPath, { force: true });
    }
  }
}

function takeLock(lockPath: string, dataDir: string): void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number(readFileSync(lockPath, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
        throw new DataDirectoryLockedError(dataDir, pid);
      }
      // The holder is gone (a crash or kill -9): the lock is stale.
      rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`Could not take the lock ${lockPath}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
