// A second Interlock service for the browser tests that need a setting the shared one
// (tools/scripts/with-service.mjs) does not have, such as EMAIL_VERIFICATION=required: the built
// service with this process's environment (EMAIL_VERIFICATION, RATE_LIMIT_*), on a database of
// its own on the same Postgres server (ADMIN_DATABASE_URL: a superuser URL) and a real SMTP
// server of its own. Run it with node; it prints one JSON line `{"baseUrl", "mailDir"}` once the
// service is ready. SIGTERM, or its stdin closing (the test runner gone), stops the service and
// the SMTP server and drops the database.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startMailSink, startService } from '../../../../tools/scripts/with-service.mjs';

const adminUrl = process.env.ADMIN_DATABASE_URL;
if (!adminUrl) throw new Error('ADMIN_DATABASE_URL is not set');
const dbName = `interlock_web_e2e_second_${process.pid}_${randomBytes(3).toString('hex')}`;
const dbUrl = new URL(adminUrl);
dbUrl.pathname = `/${dbName}`;
const scratch = mkdtempSync(join(tmpdir(), 'interlock-second-service-'));
const mailDir = join(scratch, 'mail');
const downloadsDir = join(scratch, 'downloads');

async function admin(sql) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

let mail;
let service;
let stopping;
const stop = (code = 0) =>
  (stopping ??= (async () => {
    await service?.stop().catch((error) => console.error(`stopping the service: ${error.message}`));
    await mail?.stop().catch(() => undefined);
    await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch((error) =>
      console.error(`dropping ${dbName}: ${error.message}`),
    );
    rmSync(scratch, { recursive: true, force: true });
    process.exit(code);
  })());
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => stop());
process.stdin.on('end', () => stop());
process.stdin.resume();

try {
  await admin(`CREATE DATABASE ${dbName}`);
  mail = await startMailSink(mailDir);
  mkdirSync(downloadsDir);
  service = await startService(dbUrl.toString(), downloadsDir, mail.url);
  console.log(JSON.stringify({ baseUrl: service.baseUrl, mailDir }));
} catch (error) {
  console.error(error);
  await stop(1);
}
