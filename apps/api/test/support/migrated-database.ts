import { createDataSource } from '../../src/database/data-source';
import { migrateUnderLock } from '../../src/database/migrator';
import { ensureMigratedTemplate } from './template-database.cjs';
import { adminDatabaseUrl, createTestDatabase, TestDatabase } from './test-database';

/**
 * A fresh database with every migration applied: a copy of the run's template database, which
 * the first file or service to ask migrates once (template-database.cjs: `npm test` names it for
 * the whole run, a Jest run on its own names its own; either drops it at the end). Copying takes a
 * fraction of a second where migrating takes several on a loaded machine, for every service a
 * test starts. Outside such a run (no INTERLOCK_TEST_TEMPLATE_DATABASE) it is an empty database,
 * which the service migrates as it starts.
 */
export async function createMigratedTestDatabase(): Promise<TestDatabase> {
  return createTestDatabase({ template: await migratedTemplate() });
}

let template: Promise<string | undefined> | undefined;

/** The run's template (template-database.cjs), migrated by the first file or service that needs it. */
function migratedTemplate(): Promise<string | undefined> {
  const name = process.env.INTERLOCK_TEST_TEMPLATE_DATABASE;
  if (name === undefined) return Promise.resolve(undefined);
  template ??= ensureMigratedTemplate(adminDatabaseUrl(), name, async (url) => {
    const dataSource = createDataSource({ url, poolSize: 1 });
    await dataSource.initialize();
    try {
      await migrateUnderLock(dataSource, { info: () => undefined });
    } finally {
      await dataSource.destroy();
    }
  });
  // A failure is not kept: the next file tries again (and reports its own error).
  template.catch(() => (template = undefined));
  return template;
}
