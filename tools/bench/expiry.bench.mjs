#!/usr/bin/env node
// Deadlines at scale (issue 37 §6): 10,000 open interrupts of one organisation whose deadlines
// fall at the same instant, two service instances on one database running the expiry job. Times
// from the deadline until every one is `expired`, and checks each was applied once (one
// `interrupt.expired` audit entry and one system decision per interrupt).
//   npx nx run tools:bench-expiry    (BENCH_DATABASE_URL=postgres://… to use your own server;
//   BENCH_EXPIRY_COUNT=N for another count, BENCH_EXPIRY_LIMIT_SECONDS=S to stop waiting after S)
// It measures expiry, not creation: TEMPLATES interrupts are opened through the API, and the rest
// are copied from them in SQL, row for row in the service's own schema (a new id, the record
// left for the service to render), so 10,000 are seeded in seconds rather than minutes.
import { loadavg } from 'node:os';
import pg from 'pg';
import {
  benchDatabase,
  machine,
  signUpWithKey,
  startService,
  writeSection,
} from './bench-support.mjs';

const COUNT = Number(process.env.BENCH_EXPIRY_COUNT ?? 10_000);
const CONCURRENCY = 32;
/** How many interrupts are opened through the API; the others are SQL copies of them. */
const TEMPLATES = Math.min(COUNT, 50);
/** How long after the deadline the bench waits for the last expiry before it reports what it saw. */
const LIMIT_S = Number(process.env.BENCH_EXPIRY_LIMIT_SECONDS ?? 600);
const ENV = {
  NODE_ENV: 'development',
  API_KEY_PEPPER: 'bench-pepper-0123456789-0123456789-01234',
  LOG_LEVEL: 'warn',
  PLAN_FREE_MESSAGES: '1000000000',
  PASSWORD_SCRYPT_LOG_N: '14',
};
const log = (message) => console.error(`[bench-expiry] ${message}`);

async function openTemplates(base, key) {
  let next = 0;
  const worker = async () => {
    while (next < TEMPLATES) {
      const n = next++;
      const res = await fetch(`${base}/api/interrupts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body: JSON.stringify({
          title: `Refund order ${n}`,
          actionRequests: [{ name: 'refund', args: { order: n } }],
          timeoutSeconds: 86_400,
        }),
      });
      if (res.status !== 201)
        throw new Error(`POST /api/interrupts: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

const { url, stop: stopDatabase } = await benchDatabase('interlock_bench_expiry');
const env = { ...ENV, DATABASE_URL: url };
const a = await startService(env);
const b = await startService(env);
const db = new pg.Client({ connectionString: url });
await db.connect();
try {
  const { key, organisationId } = await signUpWithKey(a.base, 'expiry');
  const seeding = Date.now();
  await openTemplates(a.base, key);
  // Every column as the template has it, but a new id and no kept record (rendered on read).
  const { rows: columns } = await db.query(
    `SELECT column_name FROM information_schema.columns
      WHERE table_schema = 'public' AND table_name = 'interrupts' ORDER BY ordinal_position`,
  );
  const names = columns.map((c) => c.column_name);
  const value = (c) =>
    c === 'id' ? 'gen_random_uuid()' : c.startsWith('record_') ? 'NULL' : `t.${c}`;
  await db.query(
    `INSERT INTO interrupts (${names.join(', ')})
     SELECT ${names.map(value).join(', ')}
       FROM generate_series(1, $2::int) n
       JOIN LATERAL (SELECT * FROM interrupts WHERE organisation_id = $1 ORDER BY id
                      OFFSET (n % ${TEMPLATES}) LIMIT 1) t ON true`,
    [organisationId, COUNT - TEMPLATES],
  );
  log(
    `seeded ${COUNT} interrupts (${TEMPLATES} through the API) in ${((Date.now() - seeding) / 1000).toFixed(1)} s`,
  );
  // Every deadline at one instant, 10 s from now: the harshest "due at the same minute".
  const {
    rows: [{ due }],
  } = await db.query(
    `WITH d AS (SELECT date_trunc('second', now()) + interval '10 seconds' AS due)
     UPDATE interrupts SET expires_at = d.due FROM d
      WHERE organisation_id = $1 AND status = 'open' RETURNING d.due`,
    [organisationId],
  );
  const dueAt = new Date(due).getTime();
  const load1 = loadavg()[0];
  let firstAt = null;
  let lastAt = null;
  let expired = 0;
  for (;;) {
    ({
      rows: [{ expired }],
    } = await db.query(
      `SELECT count(*)::int AS expired FROM interrupts WHERE organisation_id = $1 AND status = 'expired'`,
      [organisationId],
    ));
    if (expired > 0 && firstAt === null) firstAt = Date.now();
    lastAt = Date.now();
    if (expired >= COUNT || lastAt - dueAt > LIMIT_S * 1000) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const {
    rows: [once],
  } = await db.query(
    `SELECT (SELECT count(*)::int FROM interrupts WHERE organisation_id = $1 AND status = 'expired') AS expired,
            (SELECT count(*)::int FROM audit_log_entries WHERE organisation_id = $1 AND action = 'interrupt.expired') AS audited,
            (SELECT count(*)::int FROM interrupt_decisions WHERE organisation_id = $1 AND decided_by_type = 'system') AS decisions,
            (SELECT count(*)::int FROM (SELECT interrupt_id FROM interrupt_decisions WHERE organisation_id = $1
               GROUP BY interrupt_id HAVING count(*) > 1) x) AS twice`,
    [organisationId],
  );
  const all = (lastAt - dueAt) / 1000;
  const first = firstAt === null ? null : (firstAt - dueAt) / 1000;
  const rate = firstAt === null ? 0 : expired / ((lastAt - firstAt) / 1000);
  const done = expired >= COUNT;
  log(
    `${expired} of ${COUNT} expired ${all.toFixed(1)} s after the deadline; audited ${once.audited}, decisions ${once.decisions}, twice ${once.twice}`,
  );
  writeSection(
    'expiry',
    `## Deadlines: ${COUNT.toLocaleString('en')} interrupts due at the same instant (issue 37 §6)

\`${COUNT === 10_000 ? '' : `BENCH_EXPIRY_COUNT=${COUNT} `}npx nx run tools:bench-expiry\` — ${COUNT.toLocaleString('en')} open interrupts of one organisation
(${TEMPLATES} opened through the API, the rest SQL copies of them in the service's schema — the
bench measures expiry, not creation —, one action each, then every \`expires_at\` set to one
instant 10 s ahead),
two service instances on one database, each running the job runner; the \`interrupt-expiry\` job
(every 5 s, one instance at a time) applies them in batches of up to 250 per transaction, four at a time. Machine: ${machine()}; load average ${load1.toFixed(1)}
when the deadline came.

| | |
|---|---|
| first interrupt expired after the deadline | ${first === null ? 'none' : `${first.toFixed(1)} s`} |
| ${done ? `all ${COUNT.toLocaleString('en')} expired after the deadline` : `expired ${all.toFixed(0)} s after the deadline (the bench stopped waiting)`} | **${done ? `${all.toFixed(1)} s` : `${expired.toLocaleString('en')} of ${COUNT.toLocaleString('en')}`}** (goal: all of 10,000 within 60 s) |
| rate once started | ${Math.round(rate).toLocaleString('en')} interrupts/s |
| \`interrupt.expired\` audit entries | ${once.audited.toLocaleString('en')} |
| system decisions | ${once.decisions.toLocaleString('en')}; interrupts with more than one decision: ${once.twice} |

One organisation is the harsh case: every batch appends to that organisation's audit chain, so
the batches queue on its head row (once per batch of 250).`,
  );
  // One snapshot: the job may still be applying deadlines when the bench stopped waiting.
  if (once.audited !== once.expired || once.decisions !== once.expired || once.twice !== 0)
    throw new Error('an expiry was applied more or less than once');
  if (!done) process.exitCode = 1;
} finally {
  await db.end();
  await a.stop();
  await b.stop();
  await stopDatabase();
}
