import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/** The server `npm test` started (or the one TEST_DATABASE_URL names). */
export function adminDatabaseUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    throw new Error(
      'TEST_DATABASE_URL is not set: run e2e tests through `npm test`, which starts Postgres',
    );
  }
  return url;
}

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** The URL of database `name` on the test server. */
export function testDatabaseUrl(name: string): string {
  const url = new URL(adminDatabaseUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

/** One connection to the test server's `postgres` database, for `work`. */
export async function asAdmin<T>(work: (admin: Client) => Promise<T>): Promise<T> {
  const admin = new Client({ connectionString: adminDatabaseUrl() });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

/**
 * A fresh database on the test server, so each test file starts clean: empty, or a copy of
 * `template` (CREATE DATABASE … TEMPLATE; migrated-database.ts makes the migrated one).
 */
export async function createTestDatabase(
  options: { template?: string } = {},
): Promise<TestDatabase> {
  const name = `interlock_test_${randomBytes(6).toString('hex')}`;
  await asAdmin((admin) =>
    admin.query(
      `CREATE DATABASE ${name}${options.template === undefined ? '' : ` TEMPLATE ${options.template}`}`,
    ),
  );
  return {
    url: testDatabaseUrl(name),
    name,
    async drop() {
      await asAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}
