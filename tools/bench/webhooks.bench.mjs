#!/usr/bin/env node
// Webhooks: (1) deliveries/s from the outbox to a receiver on loopback, with one and two service
// instances on one database; (2) what the outbox costs POST /api/interrupts: requests/s for an
// organisation without webhooks against one with a subscribed webhook (the worker delivering in
// the same process meanwhile).
//   npx nx run tools:bench-webhooks    (BENCH_DATABASE_URL=postgres://… to use your own server)
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { loadavg } from 'node:os';
import pg from 'pg';
import {
  benchDatabase,
  build,
  load,
  machine,
  startService,
  writeSection,
} from './bench-support.mjs';

const BACKLOG = Number(process.env.BENCH_WEBHOOK_BACKLOG ?? 5000);
const SECONDS = 10;
const CONNECTIONS = 32;
const PEPPER = 'bench-pepper-0123456789-0123456789-01234';
const ENV = {
  NODE_ENV: 'development',
  API_KEY_PEPPER: PEPPER,
  LOG_LEVEL: 'silent',
  PLAN_FREE_MESSAGES: '1000000000',
  WEBHOOK_POLL_INTERVAL: '1s',
  // The load generator is one organisation's key at full speed: measured here, not rate-limited.
  RATE_LIMIT_API_KEY_REQUESTS: '0',
};
const INTERRUPT_BODY = JSON.stringify({
  title: 'Deploy to prod',
  externalId: 'run-42',
  actionRequests: [
    { name: 'deploy', args: { service: 'api', version: '1.4.2' }, description: 'Roll out 1.4.2' },
    { name: 'notify', allowedDecisions: ['approve', 'respond'] },
  ],
});

/** A receiver on loopback that answers 204 and counts. */
async function receiver() {
  let count = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      count++;
      res.writeHead(204).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/hooks`,
    count: () => count,
    stop: () => new Promise((r) => server.close(r)),
  };
}

async function call(base, method, path, { cookie, key, body } = {}) {
  const headers = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (cookie) headers.cookie = cookie;
  if (key) headers['x-api-key'] = key;
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return { res, body: text === '' ? undefined : JSON.parse(text) };
}

async function organisation(base, name) {
  const { res, body } = await call(base, 'POST', '/api/auth/sign-up', {
    body: {
      email: `${name}@bench.example.test`,
      password: 'bench password',
      name: 'Bench',
      organisationName: name,
    },
  });
  const cookie = res.headers.get('set-cookie').split(';')[0];
  const { body: key } = await call(base, 'POST', '/api/api-keys', {
    cookie,
    body: { name: 'bench', expiry: 'never' },
  });
  return { cookie, key: key.key, organisationId: body.organisation.id };
}

async function countSucceeded(db, webhookId) {
  const { rows } = await db.query(
    `SELECT count(*)::int AS n FROM webhook_deliveries WHERE webhook_id = $1 AND status = 'succeeded'`,
    [webhookId],
  );
  return rows[0].n;
}

async function untilDelivered(db, webhookId, total, timeoutMs = 600_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if ((await countSucceeded(db, webhookId)) >= total) return;
    if (Date.now() > deadline) throw new Error(`not all ${total} deliveries succeeded in time`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * `count` events in the outbox for a disabled webhook (paused deliveries), written the way the
 * service's outbox writes them; enabling the webhook through the API then releases them at once.
 */
async function backlog(db, organisationId, webhookId, count) {
  const body = (id) =>
    JSON.stringify({
      id,
      type: 'interrupt.created',
      createdAt: new Date().toISOString(),
      organisationId,
      data: {
        id: randomUUID(),
        title: 'Deploy to prod',
        status: 'open',
        actionRequests: JSON.parse(INTERRUPT_BODY).actionRequests,
        decisions: [],
      },
    });
  for (let done = 0; done < count; done += 1000) {
    const ids = Array.from({ length: Math.min(1000, count - done) }, () => randomUUID());
    await db.query(
      `WITH e AS (
         INSERT INTO webhook_events (organisation_id, id, type, subject_id, body)
         SELECT $1, x.id, 'interrupt.created', gen_random_uuid(), x.body FROM unnest($3::uuid[], $4::text[]) AS x(id, body)
         RETURNING id, subject_id)
       INSERT INTO webhook_deliveries (organisation_id, id, webhook_id, event_id, event_type, subject_id, due_at, max_attempts)
       SELECT $1, gen_random_uuid(), $2, e.id, 'interrupt.created', e.subject_id, NULL, 8 FROM e`,
      [organisationId, webhookId, ids, ids.map(body)],
    );
  }
}

build('apps/api/tsup.config.ts');
const loadAtStart = loadavg()[0].toFixed(1);
const database = await benchDatabase('interlock_bench_webhooks');
const db = new pg.Client({ connectionString: database.url });
const sink = await receiver();
const services = [];
const rows = [];
try {
  const first = await startService({ ...ENV, DATABASE_URL: database.url });
  services.push(first);
  const base = `http://127.0.0.1:${first.port}`;
  await db.connect();

  // 1. Deliveries/s: a backlog released at once, one instance, then two.
  const drain = async (instances) => {
    const org = await organisation(base, `drain-${instances}-${randomUUID().slice(0, 8)}`);
    const { body: hook } = await call(base, 'POST', '/api/webhooks', {
      cookie: org.cookie,
      body: { url: sink.url, enabled: false },
    });
    await backlog(db, org.organisationId, hook.id, BACKLOG);
    const started = performance.now();
    await call(base, 'PATCH', `/api/webhooks/${hook.id}`, {
      cookie: org.cookie,
      body: { enabled: true },
    });
    await untilDelivered(db, hook.id, BACKLOG);
    const seconds = (performance.now() - started) / 1000;
    return {
      label: `${BACKLOG.toLocaleString('en')} queued deliveries, ${instances} instance${instances === 1 ? '' : 's'}`,
      perSecond: BACKLOG / seconds,
      seconds,
    };
  };
  const drains = [await drain(1)];
  services.push(await startService({ ...ENV, DATABASE_URL: database.url }));
  drains.push(await drain(2));
  await services.pop().stop();

  // 2. POST /api/interrupts without and with a subscribed webhook, alternated (A B A B A B).
  const plain = await organisation(base, 'no-webhooks');
  const hooked = await organisation(base, 'one-webhook');
  const { body: hook } = await call(base, 'POST', '/api/webhooks', {
    cookie: hooked.cookie,
    body: { url: sink.url },
  });
  const post = (key) => ({
    url: `${base}/api/interrupts`,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: INTERRUPT_BODY,
  });
  await load({ ...post(plain.key), duration: 3 }); // warm-up
  const runs = { without: [], with: [] };
  for (let round = 0; round < 3; round++) {
    for (const [name, org] of [
      ['without', plain],
      ['with', hooked],
    ]) {
      const before = await countSucceeded(db, hook.id);
      const r = await load({ ...post(org.key), duration: SECONDS, connections: CONNECTIONS });
      const created = r.requests.total;
      const deliveredDuring = (await countSucceeded(db, hook.id)) - before;
      runs[name].push({
        rps: r.requests.average,
        p50: r.latency.p50,
        p99: r.latency.p99,
        errors: r.errors + r.non2xx,
        created,
        deliveredDuring,
      });
      if (name === 'with') {
        const {
          rows: [{ n }],
        } = await db.query(
          `SELECT count(*)::int AS n FROM webhook_deliveries WHERE webhook_id = $1`,
          [hook.id],
        );
        await untilDelivered(db, hook.id, n);
      }
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const best = (name, key) => median(runs[name].map((r) => r[key]));
  const ratio = best('with', 'rps') / best('without', 'rps');
  const {
    rows: [{ events }],
  } = await db.query(
    `SELECT count(*)::int AS events FROM webhook_events WHERE organisation_id = $1`,
    [plain.organisationId],
  );
  const setting = async (name) =>
    (await db.query(`SELECT current_setting($1) AS v`, [name])).rows[0].v;
  const postgres = `Postgres ${(await setting('server_version')).split(' ')[0]} (fsync ${await setting('fsync')}, synchronous_commit ${await setting('synchronous_commit')})`;

  for (const d of drains)
    rows.push({
      path: d.label,
      value: `${Math.round(d.perSecond)} deliveries/s (${d.seconds.toFixed(1)} s)`,
    });
  const fmt = (x) => (Number.isInteger(x) ? String(x) : x.toFixed(1));
  const postTable = ['without', 'with']
    .flatMap((name) =>
      runs[name].map(
        (r, i) =>
          `| ${name === 'without' ? 'no webhook' : 'one subscribed webhook'} (run ${i + 1}) | ${Math.round(r.rps)} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${r.errors} | ${name === 'with' ? `${r.deliveredDuring} of ${r.created}` : '—'} |`,
      ),
    )
    .join('\n');
  writeSection(
    'webhooks',
    `## Webhooks: delivery throughput and the outbox's cost

Command: \`npx nx run tools:bench-webhooks\` — ${new Date().toISOString().slice(0, 10)}, ${machine()}.
The built service (\`dist/apps/api/main.js\`, default webhook settings: 32 deliveries in flight per
instance, 8 per endpoint), ${postgres}, the receiver (a Node HTTP server answering 204) and the load
generator share the machine (1-minute load average ${loadAtStart} when the run started: the machine is shared).
One run per row: read as indicative.

**Deliveries/s.** ${BACKLOG.toLocaleString('en')} \`interrupt.created\` events (an interrupt as the body) are written to
the outbox for a disabled webhook, then the webhook is enabled through the API (\`PATCH enabled: true\`,
which makes its waiting deliveries due and wakes the worker); timed until every delivery is recorded
\`succeeded\`. Each delivery is one claim (batched, \`FOR UPDATE SKIP LOCKED\`), a signed POST over a
kept-alive connection, and one statement recording the attempt.

| run | throughput |
|---|---|
${drains.map((d) => `| ${d.label} | ${Math.round(d.perSecond)} deliveries/s (${d.seconds.toFixed(1)} s) |`).join('\n')}

**The outbox's cost on \`POST /api/interrupts\`.** autocannon, ${CONNECTIONS} connections, ${SECONDS} s per run, runs
alternated (without, with) three times. With a subscribed webhook the request's transaction also
writes the event and its delivery (one statement), and the same process delivers them meanwhile;
without one it pays one index probe (the organisation has no webhook: no event row is written —
${events} for that organisation).

| organisation | requests/s | p50 ms | p99 ms | errors / non-2xx | delivered during the run |
|---|---|---|---|---|---|
${postTable}

Ratio (median requests/s with ÷ without): **${ratio.toFixed(2)}**.`,
  );
  console.table([...rows, { path: 'POST ratio with/without a webhook', value: ratio.toFixed(3) }]);
  console.log(JSON.stringify(runs, null, 2));
} finally {
  await db.end().catch(() => undefined);
  for (const s of services) await s.stop();
  await sink.stop();
  database.stop();
}
