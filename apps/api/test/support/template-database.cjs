// The run's migrated template database: every migrated test database is a copy of it (CREATE
// DATABASE … TEMPLATE), so the migrations run once per run, not once per database.
//
// `npm test` names one for the whole run (INTERLOCK_TEST_TEMPLATE_DATABASE) and drops it at the end:
// the API's e2e files (test/support/migrated-database.ts) and every service that
// tools/scripts/with-service.mjs starts (the SDKs', MCP's, the contract test's, the browser
// tests') copy the same one. A Jest run on its own names its own here (globalSetup) and drops it
// as it ends (globalTeardown, template-database-teardown.cjs).
const { createHash, randomBytes } = require('node:crypto');
const { hostname } = require('node:os');
const { Client } = require('pg');

const VARIABLE = 'INTERLOCK_TEST_TEMPLATE_DATABASE';
// The pid of the process that named the template, which drops it: a Jest run that was handed one
// leaves it to its owner.
const OWNER = 'INTERLOCK_TEST_TEMPLATE_DATABASE_OWNER';

// A template's name says which process on which machine named it, so that one left behind by a
// run that was killed (no teardown ran) is found and dropped by the next build on that machine.
const ON_THIS_MACHINE = `interlock_template_${createHash('sha256').update(hostname()).digest('hex').slice(0, 6)}_`;

/** A new template's name (not yet created: the first that needs it builds it). */
function nameTemplate() {
  process.env[VARIABLE] = `${ON_THIS_MACHINE}${process.pid}_${randomBytes(4).toString('hex')}`;
  process.env[OWNER] = String(process.pid);
  return process.env[VARIABLE];
}

/** Whether process `pid` of this machine still runs. */
function running(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** Drops the templates (and scratch copies) named on this machine by processes that have ended. */
async function dropOrphans(admin) {
  const { rows } = await admin.query(
    'SELECT datname FROM pg_database WHERE starts_with(datname, $1)',
    [ON_THIS_MACHINE],
  );
  for (const { datname } of rows) {
    const pid = datname.slice(ON_THIS_MACHINE.length).split('_')[0];
    if (!/^[0-9]+$/.test(pid) || running(Number(pid))) continue;
    await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  }
}

/** `database`'s URL on the server of `adminUrl`. */
function databaseUrl(adminUrl, database) {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/**
 * Template `name` on the server of `adminUrl`, built by the first process that needs it: under an
 * advisory lock on the server, `migrate(url)` applies every migration to a scratch database, which
 * is renamed to `name` once they are all in (and `migrate` has closed its connections), so no one
 * ever copies a half-migrated one. Resolves with `name`.
 */
async function ensureMigratedTemplate(adminUrl, name, migrate) {
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount === 0) {
      await dropOrphans(admin);
      const scratch = `${name}_building`;
      await admin.query(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${scratch}`);
      await migrate(databaseUrl(adminUrl, scratch));
      await admin.query(`ALTER DATABASE ${scratch} RENAME TO ${name}`);
    }
    return name;
  } finally {
    // Ending the session releases its advisory lock.
    await admin.end();
  }
}

/** Drops template `name` (and its scratch database, if a build died half-way). */
async function dropTemplate(adminUrl, name) {
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    for (const database of [name, `${name}_building`])
      await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

async function setup() {
  // The workers start after this and inherit the environment.
  if (process.env[VARIABLE] === undefined) nameTemplate();
}

async function teardown() {
  const name = process.env[VARIABLE];
  const url = process.env.TEST_DATABASE_URL;
  if (name === undefined || !url || process.env[OWNER] !== String(process.pid)) return;
  await dropTemplate(url, name);
}

// Jest calls the module itself (globalSetup); template-database-teardown.cjs calls `teardown`.
module.exports = setup;
module.exports.teardown = teardown;
module.exports.nameTemplate = nameTemplate;
module.exports.ensureMigratedTemplate = ensureMigratedTemplate;
module.exports.dropTemplate = dropTemplate;
