import { Writable } from 'node:stream';
import type { INestApplication } from '@nestjs/common';
import { createApp, initApp } from '../../src/app.factory';
import { AppConfig, loadConfig } from '../../src/config/app-config';
import { createMigratedTestDatabase } from './migrated-database';
import { createTestDatabase, TestDatabase } from './test-database';

export interface TestApp {
  app: INestApplication;
  config: AppConfig;
  database: TestDatabase;
  /** Every log line the app wrote, parsed. */
  logs: Record<string, unknown>[];
  close(): Promise<void>;
}

/**
 * Boots the real service on a fresh database of the test Postgres: a copy of the run's migrated
 * template, so the service finds nothing to migrate, unless `emptyDatabase` asks for the
 * service to migrate an empty one as it starts (or `databaseUrl` names a database of the test's).
 */
export async function startTestApp(
  options: {
    env?: Record<string, string>;
    imports?: unknown[];
    databaseUrl?: string;
    emptyDatabase?: boolean;
  } = {},
): Promise<TestApp> {
  const database =
    options.databaseUrl === undefined && options.emptyDatabase !== true
      ? await createMigratedTestDatabase()
      : await createTestDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    DATABASE_URL: options.databaseUrl ?? database.url,
    API_KEY_PEPPER: 'test-pepper-0123456789-0123456789-0123456789',
    // Every test signs up from 127.0.0.1: the per-address limits are the rate-limit tests' own.
    RATE_LIMIT_SIGN_UP_ADDRESS_ATTEMPTS: '100000',
    RATE_LIMIT_SIGN_IN_ADDRESS_FAILURES: '100000',
    RATE_LIMIT_SSO_START_ADDRESS_REQUESTS: '100000',
    // Factories invite and create roles for many members as one owner: the per-person write budgets are their own test's.
    RATE_LIMIT_MEMBER_WRITES: '100000',
    RATE_LIMIT_MEMBER_COSTLY_WRITES: '100000',
    // Factories sign people up and invite them without opening verification links: the
    // requirement (SPEC §8f) is the email-verification tests' own.
    EMAIL_VERIFICATION: 'optional',
    // A functional bound, not the production 5 s: on a loaded CI a Jest worker's event loop can
    // stall past 5 s while a file boots (the timer then fires before the socket is read), and 100
    // requests sharing one pool wait their turn longer. The outage tests set the real 5 s.
    DATABASE_CONNECT_TIMEOUT: '60s',
    // The suite runs on either adapter (Fastify by default): HTTP_ADAPTER=express npx jest -c apps/api/jest.e2e.config.cjs
    ...(process.env.HTTP_ADAPTER === undefined ? {} : { HTTP_ADAPTER: process.env.HTTP_ADAPTER }),
    ...options.env,
    // New password hashes at scrypt 2^12 instead of production's 2^17 (a test setting that
    // production refuses): the suites sign up hundreds of people. Production-mode apps keep 2^17.
    ...(options.env?.NODE_ENV === 'production' || options.env?.PASSWORD_SCRYPT_LOG_N !== undefined
      ? {}
      : { PASSWORD_SCRYPT_LOG_N: '12' }),
  });
  const logs: Record<string, unknown>[] = [];
  const logDestination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim() !== '') logs.push(JSON.parse(line) as Record<string, unknown>);
      }
      callback();
    },
  });
  const { app } = await createApp(config, { logDestination, imports: options.imports as never });
  await initApp(app);
  return {
    app,
    config,
    database,
    logs,
    async close() {
      await app.close();
      await database.drop();
    },
  };
}
