// Jest's globalSetup/globalTeardown for the API e2e suites: names the run's template database
// (migrated-database.ts migrates it once, when the first file needs it, and
// copies it for every migrated test database) and drops it when the run ends.
const { randomBytes } = require('node:crypto');
const { Client } = require('pg');

const VARIABLE = 'INTERLOCK_TEST_TEMPLATE_DATABASE';

async function setup() {
  // The workers start after this and inherit the environment.
  process.env[VARIABLE] = `interlock_template_${randomBytes(6).toString('hex')}`;
}

async function teardown() {
  const name = process.env[VARIABLE];
  const url = process.env.TEST_DATABASE_URL;
  if (name === undefined || !url) return;
  const admin = new Client({ connectionString: url });
  await admin.connect();
  try {
    for (const database of [name, `${name}_building`])
      await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

// Jest calls the module itself (globalSetup); template-database-teardown.cjs calls `teardown`.
module.exports = setup;
module.exports.teardown = teardown;
