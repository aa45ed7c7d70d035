import { createDataSource } from '../../src/database/data-source';
import { migrateUnderLock } from '../../src/database/migrator';
import { asAdmin, createTestDatabase, TestDatabase, testDatabaseUrl } from './test-database';

/**
 * A fresh database with every migration applied: a copy of the Jest run's template database,
 * which the first file to ask migrates once (template-database.cjs names it for the run and
 * drops it at the end). Copying takes a fraction of a second where migrating takes several on a
 * loaded machine, for every service a test starts. Outside such a run (no
 * INTERLOCK_TEST_TEMPLATE_DATABASE) it is an empty database, which the service migrates as it starts.
 */
export async function createMigratedTestDatabase(): Promise<TestDatabase> {
  return createTestDatabase({ template: await migratedTemplate() });
}

let template: Promise<string | undefined> | undefined;

/**
 * The run's template, built by the first worker that needs it: under an advisory lock on the
 * server, into a scratch database that is renamed to the template's name once every migration is
 * in, so no worker ever copies a half-migrated one.
 */
function migratedTemplate(): Promise<string | undefined> {
  const name = process.env.INTERLOCK_TEST_TEMPLATE_DATABASE;
  if (name === undefined) return Promise.resolve(undefined);
  template ??= asAdmin(async (admin) => {
    await admin.query(`SELECT pg_advisory_lock(hashtext($1))`, [name]);
    try {
      const { rowCount } = await admin.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [
        name,
      ]);
      if (rowCount === 0) {
        const scratch = `${name}_building`;
        await admin.query(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`);
        await admin.query(`CREATE DATABASE ${scratch}`);
        const dataSource = createDataSource({ url: testDatabaseUrl(scratch), poolSize: 1 });
        await dataSource.initialize();
        try {
          await migrateUnderLock(dataSource, { info: () => undefined });
        } finally {
          await dataSource.destroy();
        }
        await admin.query(`ALTER DATABASE ${scratch} RENAME TO ${name}`);
      }
      return name;
    } finally {
      await admin.query(`SELECT pg_advisory_unlock(hashtext($1))`, [name]);
    }
  });
  // A failure is not kept: the next file tries again (and reports its own error).
  template.catch(() => (template = undefined));
  return template;
}
