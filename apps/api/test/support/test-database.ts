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

/** A fresh, empty database on the test server, so each test file starts clean. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const admin = new Client({ connectionString: adminDatabaseUrl() });
  await admin.connect();
  const name = `interlock_test_${randomBytes(6).toString('hex')}`;
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminDatabaseUrl());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const c = new Client({ connectionString: adminDatabaseUrl() });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
