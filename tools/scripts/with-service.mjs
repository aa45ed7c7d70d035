#!/usr/bin/env node
// Runs a command against a live Interlock service on real Postgres: the SDKs' integration tests.
//
//   node tools/scripts/with-service.mjs -- npx jest -c libs/sdk-ts/jest.integration.config.cjs
//
// On the server at TEST_DATABASE_URL (a superuser URL; `npm test` provides one, and without it a
// throwaway cluster is started) it builds the service (nx api:build), creates a fresh database (in
// `npm test`, a copy of the run's migrated template: createServiceDatabase), starts the service on
// a free loopback port and waits until /health/ready answers. Then it sets up two
// organisations over HTTP, as a user would:
//   - a Pro organisation: its owner signs up, upgrades the plan and creates an API key (and a
//     second key that is then made expired directly in the database: expiry cannot be moved
//     over the API), and a team 'Reviewers' holding the owner;
//   - a Free organisation with its own key.
// The command after `--` runs with these in its environment:
//   INTERLOCK_BASE_URL            the service's origin
//   INTERLOCK_API_KEY             a key of the Pro organisation
//   INTERLOCK_FREE_API_KEY        a key of the Free organisation
//   INTERLOCK_EXPIRED_API_KEY     a key of the Pro organisation, past its expiry
//   INTERLOCK_TEST_MEMBER_COOKIE  the Pro owner's `session=…` cookie (to decide interrupts)
//   INTERLOCK_TEST_MEMBER_EMAIL, INTERLOCK_TEST_MEMBER_PASSWORD  the Pro owner's credentials
//   INTERLOCK_TEST_ORGANISATION_ID  the Pro organisation's id (for x-organisation-id)
//   INTERLOCK_TEST_MEMBER_ID      the Pro owner's member (user) id
//   INTERLOCK_MAIL_DIR            where every email the service sent lands, one `<n>.eml` each:
//                                 the service's SMTP_URL is a real SMTP server (smtp-server) here
//   INTERLOCK_TEST_DATABASE_URL   the service's database (dropped at the end): a test keeps a
//                                 framework's own tables there, in a schema of its own, or moves
//                                 on what only time would (an interrupt's escalation clock)
//   INTERLOCK_TEST_DOWNLOADS_DIR  the service's DOWNLOADS_DIR (empty): what a test puts there, with
//                                 a manifest.json, is served at /downloads/…
//   INTERLOCK_DNS_DIR             the TXT records of the service's name server (SSO_DNS_SERVERS is
//                                 a real DNS server, dns2, on loopback): a file named like the
//                                 record (`_interlock-challenge.example.com`) holds its values, one
//                                 a line; no file: NXDOMAIN (single sign-on domain proofs, SPEC §8f)
// The service runs with the environment below, plus any RATE_LIMIT_* variable of this process
// (the contract test raises the limits: it signs in and up far more often than a person) and
// HTTP_ADAPTER when set (the contract test's Express run).
// The nx targets that run it depend on api:build and set INTERLOCK_API_BUILT=1: the service is
// not built again here (even a cache hit of `nx run api:build` costs Nx's start and hashing,
// 15 s on a loaded machine, once for each of the six targets, one at a time behind the lock).
// Whatever happens, the service is stopped (SIGTERM) and the database dropped. The exit code is
// the command's.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import dns2 from 'dns2';
import smtp from 'smtp-server';
import templateDatabase from '../../apps/api/test/support/template-database.cjs';
import { startThrowawayPostgres } from './throwaway-postgres.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const buildLock = join(root, 'tmp', 'with-service-build.lock');
// A bound on a real condition (/health/ready answers 200; an exit ends the wait at once): the
// start migrates an empty database, and at load 40 on the 2-core machine it took more than 60 s.
const READY_TIMEOUT_MS = 180_000;
const STOP_TIMEOUT_MS = 15_000;

function log(message) {
  console.error(`[with-service] ${message}`);
}

function commandFromArgs(argv) {
  const i = argv.indexOf('--');
  const command = i >= 0 ? argv.slice(i + 1) : argv;
  if (command.length === 0) {
    console.error('usage: node tools/scripts/with-service.mjs -- <command> [args…]');
    process.exit(2);
  }
  return command;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Builds the service once at a time: the SDK e2e targets may run in parallel, and tsup cleans its outDir. */
async function buildService() {
  mkdirSync(join(root, 'tmp'), { recursive: true });
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    try {
      mkdirSync(buildLock);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      // A lock older than 10 minutes was left by a run that died.
      const age =
        Date.now() - (statSync(buildLock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 10 * 60_000) rmSync(buildLock, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`timed out waiting for ${buildLock}`);
      else await sleep(500);
    }
  }
  try {
    log('building the service (nx run api:build)');
    const result = spawnSync('npx', ['nx', 'run', 'api:build', '--outputStyle=static'], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
      // Not npm test's NX_PROFILE: this run's trace would overwrite the whole run's.
      env: {
        ...process.env,
        NX_DAEMON: 'false',
        NX_NO_CLOUD: 'true',
        NX_TUI: 'false',
        NX_PROFILE: undefined,
      },
    });
    if (result.status !== 0) throw new Error(`nx run api:build failed (exit ${result.status})`);
  } finally {
    rmSync(buildLock, { recursive: true, force: true });
  }
}

/**
 * The service's database `dbName` on the server of `adminUrl`: a copy of the run's migrated
 * template when `npm test` names one (INTERLOCK_TEST_TEMPLATE_DATABASE; the first service or API
 * e2e file that needs it migrates it, here with the built service's migrate command), so the
 * service finds nothing to migrate as it starts; else an empty database, which it migrates.
 */
export async function createServiceDatabase(adminUrl, dbName) {
  const name = process.env.INTERLOCK_TEST_TEMPLATE_DATABASE;
  const template =
    name === undefined
      ? undefined
      : await templateDatabase.ensureMigratedTemplate(adminUrl, name, migrateWithBuiltService);
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin
    .query(`CREATE DATABASE ${dbName}${template === undefined ? '' : ` TEMPLATE ${template}`}`)
    .finally(() => admin.end());
}

/** Applies every migration to the database at `url` with the built service's `migrate run`. */
function migrateWithBuiltService(url) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'dist/apps/api/migrate.js'), 'run'], {
      cwd: root,
      env: { PATH: process.env.PATH, DATABASE_URL: url, NODE_ENV: 'test', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0
        ? resolve()
        : reject(new Error(`migrate.js run on the template exited with ${code ?? signal}`)),
    );
  });
}

/** A real SMTP server on loopback that writes each message it accepts to `dir` as `<n>.eml`. */
export async function startMailSink(dir) {
  mkdirSync(dir, { recursive: true });
  let count = 0;
  const server = new smtp.SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks = [];
      stream.on('data', (c) => chunks.push(c));
      stream.on('end', () => {
        count += 1;
        writeFileSync(join(dir, `${String(count).padStart(6, '0')}.eml`), Buffer.concat(chunks));
        callback();
      });
    },
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${server.server.address().port}`,
    stop: () => new Promise((resolve) => server.close(resolve)),
  };
}

/**
 * A real DNS server on loopback (UDP) answering TXT queries from `dir`: the file named like the
 * question holds the record's values, one a line; no file is NXDOMAIN.
 */
async function startDnsServer(dir) {
  mkdirSync(dir, { recursive: true });
  const { Packet } = dns2;
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const name = (question?.name ?? '').toLowerCase();
      let values;
      try {
        values = /^[a-z0-9._-]+$/.test(name)
          ? readFileSync(join(dir, name), 'utf8')
              .split('\n')
              .filter((v) => v !== '')
          : undefined;
      } catch {
        values = undefined;
      }
      if (values === undefined) response.header.rcode = 3;
      else if (question.type === Packet.TYPE.TXT)
        for (const data of values)
          response.answers.push({
            name: question.name,
            type: Packet.TYPE.TXT,
            class: Packet.CLASS.IN,
            ttl: 1,
            data,
          });
      void send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  return { address: `127.0.0.1:${addresses.udp.port}`, stop: () => server.close() };
}

/**
 * The built service on a free loopback port, ready; `stop()` ends it. EMAIL_VERIFICATION, RATE_LIMIT_*,
 * WEB_DIR and HTTP_ADAPTER come from this process's environment; `dnsServer` (`ip:port`), when given,
 * is its SSO_DNS_SERVERS.
 */
export async function startService(databaseUrl, downloadsDir, smtpUrl, dnsServer) {
  const port = await freePort();
  const child = spawn(process.execPath, [join(root, 'dist/apps/api/main.js')], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      API_KEY_PEPPER: randomBytes(24).toString('hex'),
      NODE_ENV: 'test',
      // Password hashes at scrypt 2^12, not production's 2^17: the browser tests sign up many people.
      PASSWORD_SCRYPT_LOG_N: '12',
      DOWNLOADS_DIR: downloadsDir,
      SMTP_URL: smtpUrl,
      ...(dnsServer === undefined ? {} : { SSO_DNS_SERVERS: dnsServer }),
      // The browser tests' people do not open verification links unless a test does (SPEC §8f).
      EMAIL_VERIFICATION: process.env.EMAIL_VERIFICATION ?? 'optional',
      LOG_LEVEL: process.env.WITH_SERVICE_LOG_LEVEL ?? 'warn',
      ...Object.fromEntries(
        Object.entries(process.env).filter(([name]) => name.startsWith('RATE_LIMIT_')),
      ),
      // Another build of the dashboard (`WEB_DIR=/tmp/web-before`), e.g. a browser test against a
      // build of the code before a change, while dist/apps/web serves something else.
      ...(process.env.WEB_DIR === undefined ? {} : { WEB_DIR: process.env.WEB_DIR }),
      // The HTTP adapter (Fastify by default): `HTTP_ADAPTER=express` runs the command against Express.
      ...(process.env.HTTP_ADAPTER === undefined ? {} : { HTTP_ADAPTER: process.env.HTTP_ADAPTER }),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal)),
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`the service exited with ${child.exitCode} before it was ready`);
    const ready = await fetch(`${baseUrl}/health/ready`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) return { baseUrl, stop };
    await sleep(100);
  }
  await stop();
  throw new Error(`the service was not ready within ${READY_TIMEOUT_MS / 1000} s`);
}

/** One JSON call; throws with the service's answer unless the status is the expected one. */
export async function call(baseUrl, method, path, { body, cookie, expect = [200, 201] } = {}) {
  const headers = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (cookie !== undefined) headers.cookie = cookie;
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!expect.includes(response.status)) {
    throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  }
  return { response, body: text === '' ? undefined : JSON.parse(text) };
}

function sessionCookie(response) {
  for (const header of response.headers.getSetCookie()) {
    const pair = header.split(';')[0];
    // `__Host-session` where the service runs with NODE_ENV=production (SPEC §8f), `session` elsewhere.
    if (pair.startsWith('session=') || pair.startsWith('__Host-session=')) return pair;
  }
  throw new Error('sign-up set no session cookie');
}

export async function signUp(baseUrl, label) {
  return (await signUpOwner(baseUrl, label)).cookie;
}

/** A new organisation's owner: the session cookie, and the credentials to sign in again. */
async function signUpOwner(baseUrl, label) {
  const suffix = randomBytes(4).toString('hex');
  const email = `${label}-${suffix}@sdk-e2e.example.com`;
  const password = `correct horse ${suffix}`;
  const { response, body } = await call(baseUrl, 'POST', '/api/auth/sign-up', {
    body: {
      email,
      password,
      name: `SDK ${label} owner`,
      organisationName: `SDK e2e ${label} ${suffix}`,
    },
  });
  return {
    cookie: sessionCookie(response),
    email,
    password,
    organisationId: body.organisation.id,
    memberId: body.user.id,
  };
}

export async function createKey(baseUrl, cookie, name, expiry = 'never') {
  const { body } = await call(baseUrl, 'POST', '/api/api-keys', { cookie, body: { name, expiry } });
  return body;
}

/** The two organisations and their keys, set up over HTTP as a user would. */
async function prepare(baseUrl, db) {
  const proOwner = await signUpOwner(baseUrl, 'pro');
  const proCookie = proOwner.cookie;
  await call(baseUrl, 'PUT', '/api/organisation/plan', {
    cookie: proCookie,
    body: { plan: 'pro' },
  });
  const proKey = await createKey(baseUrl, proCookie, 'sdk-e2e');
  // The team the contract's example approver team names ({teamName: 'Reviewers'}), with the
  // owner in it, so the contract test's example of an action request is valid here.
  const { body: team } = await call(baseUrl, 'POST', '/api/teams', {
    cookie: proCookie,
    body: { name: 'Reviewers' },
  });
  await call(baseUrl, 'POST', `/api/teams/${team.id}/members`, {
    cookie: proCookie,
    body: { memberId: proOwner.memberId },
    expect: [204],
  });
  const expiring = await createKey(baseUrl, proCookie, 'sdk-e2e-expired', '7d');
  // Expiry is fixed at creation; only the database can move it into the past. The key has never
  // been used, so the service has nothing cached for it.
  const moved = await db.query(
    `UPDATE api_keys SET expires_at = now() - interval '1 minute' WHERE id = $1`,
    [expiring.id],
  );
  if (moved.rowCount !== 1) throw new Error('could not expire the prepared key');

  const freeCookie = await signUp(baseUrl, 'free');
  const freeKey = await createKey(baseUrl, freeCookie, 'sdk-e2e-free');
  return {
    INTERLOCK_BASE_URL: baseUrl,
    INTERLOCK_API_KEY: proKey.key,
    INTERLOCK_FREE_API_KEY: freeKey.key,
    INTERLOCK_EXPIRED_API_KEY: expiring.key,
    INTERLOCK_TEST_MEMBER_COOKIE: proCookie,
    INTERLOCK_TEST_MEMBER_EMAIL: proOwner.email,
    INTERLOCK_TEST_MEMBER_PASSWORD: proOwner.password,
    INTERLOCK_TEST_ORGANISATION_ID: proOwner.organisationId,
    INTERLOCK_TEST_MEMBER_ID: proOwner.memberId,
  };
}

function runCommand(command, env, state) {
  return new Promise((resolve) => {
    const child = spawn(command[0], command.slice(1), { cwd: root, stdio: 'inherit', env });
    state.command = child;
    child.once('error', (error) => {
      log(`could not run ${command[0]}: ${error.message}`);
      resolve(127);
    });
    child.once('exit', (code, signal) => {
      state.command = undefined;
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

async function main() {
  const command = commandFromArgs(process.argv.slice(2));
  const state = { command: undefined, cleanup: async () => undefined };
  // Ctrl-C or a SIGTERM from the task runner: pass it to the command when it runs (its exit then
  // leads to the normal clean-up), else clean up here.
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      if (state.command) state.command.kill(signal);
      else state.cleanup().finally(() => process.exit(130));
    });
  }

  let cluster;
  let adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    cluster = await startThrowawayPostgres();
    adminUrl = cluster.url;
    log(`no TEST_DATABASE_URL: throwaway Postgres at ${adminUrl}`);
  }
  const dbName = `interlock_sdk_e2e_${process.pid}_${randomBytes(3).toString('hex')}`;
  const dbUrl = new URL(adminUrl);
  dbUrl.pathname = `/${dbName}`;

  let service;
  let db;
  let cleaned;
  // The service's /downloads folder, empty: a test puts there the packages it installs over HTTP.
  const downloadsDir = mkdtempSync(join(tmpdir(), 'interlock-downloads-'));
  const mailDir = join(root, 'tmp', 'with-service-mail', `${process.pid}`);
  rmSync(mailDir, { recursive: true, force: true });
  const mail = await startMailSink(mailDir);
  const dnsDir = join(root, 'tmp', 'with-service-dns', `${process.pid}`);
  rmSync(dnsDir, { recursive: true, force: true });
  const dns = await startDnsServer(dnsDir);
  state.cleanup = () =>
    (cleaned ??= (async () => {
      await db?.end().catch(() => undefined);
      await service?.stop().catch((error) => log(`stopping the service: ${error.message}`));
      await mail.stop().catch(() => undefined);
      await dns.stop().catch(() => undefined);
      rmSync(dnsDir, { recursive: true, force: true });
      const admin = new pg.Client({ connectionString: adminUrl });
      try {
        await admin.connect();
        await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      } catch (error) {
        log(`dropping ${dbName}: ${error.message}`);
      } finally {
        await admin.end().catch(() => undefined);
      }
      cluster?.stop();
      rmSync(downloadsDir, { recursive: true, force: true });
    })());

  let code = 1;
  try {
    if (process.env.INTERLOCK_API_BUILT === '1')
      log('the service is built (INTERLOCK_API_BUILT=1)');
    else await buildService();
    await createServiceDatabase(adminUrl, dbName);
    service = await startService(dbUrl.toString(), downloadsDir, mail.url, dns.address);
    log(`service ready at ${service.baseUrl} (database ${dbName})`);
    db = new pg.Client({ connectionString: dbUrl.toString() });
    await db.connect();
    const prepared = await prepare(service.baseUrl, db);
    await db.end();
    db = undefined;
    code = await runCommand(
      command,
      {
        ...process.env,
        ...prepared,
        INTERLOCK_TEST_DOWNLOADS_DIR: downloadsDir,
        INTERLOCK_MAIL_DIR: mailDir,
        INTERLOCK_DNS_DIR: dnsDir,
        INTERLOCK_TEST_DATABASE_URL: dbUrl.toString(),
      },
      state,
    );
  } catch (error) {
    log(`FAILED: ${error.message}`);
    code = 1;
  } finally {
    await state.cleanup();
  }
  process.exit(code);
}

// Run as a script; imported (by tools/bench/sdk-*.bench.mjs and the browser tests' second service,
// apps/web-e2e/src/support/second-service.mjs), it only lends its helpers.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
