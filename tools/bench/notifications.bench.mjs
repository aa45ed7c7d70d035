#!/usr/bin/env node
// Notifications (issue 30): a burst of interrupts in one organisation of MEMBERS members queues
// MEMBERS × INTERRUPTS emails (every member is told of every new interrupt, immediately); two
// service instances on one database deliver them to a real SMTP server on loopback
// (smtp-server). Measured: from the burst's first request to the last message received, and
// that every (recipient, interrupt) pair arrived exactly once. Each instance signs in to the SMTP
// server as its own user, so the server counts who sent what.
//   npx nx run tools:bench-notifications    (BENCH_DATABASE_URL=postgres://… to use your own server;
//   BENCH_CPU_PROF=<dir> writes each instance's --cpu-prof profile there; BENCH_CHECKOUT=<dir> runs
//   the service built in another checkout; BENCH_CHECKOUT_B=<dir> only instance B's, so two versions
//   share one queue under the same load and the split of the emails compares them; BENCH_ENV='NAME=value …'
//   adds settings to both instances' environment, e.g. SMTP_MAX_CONNECTIONS or NOTIFICATION_CONCURRENCY)
import { loadavg } from 'node:os';
import smtp from 'smtp-server';
import { benchDatabase, machine, root, startService, writeSection } from './bench-support.mjs';

const MEMBERS = Number(process.env.BENCH_NOTIFICATION_MEMBERS ?? 10);
const INTERRUPTS = Number(process.env.BENCH_NOTIFICATION_INTERRUPTS ?? 1000);
const CONCURRENCY = 32;
const PEPPER = 'bench-pepper-0123456789-0123456789-01234';

/** A real SMTP server that accepts everything, records (user, to, interrupt id) and counts. */
async function smtpSink() {
  const received = [];
  let onMessage = () => undefined;
  const server = new smtp.SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username });
    },
    onData(stream, session, callback) {
      const chunks = [];
      stream.on('data', (c) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks)
          .toString('utf8')
          .replace(/=\r?\n/g, '');
        const interrupt = /\/interrupts\/([0-9a-f-]{36})/.exec(raw)?.[1] ?? null;
        received.push({
          user: session.user,
          to: session.envelope.rcptTo.map((r) => r.address).join(','),
          interrupt,
          at: Date.now(),
        });
        onMessage();
        callback();
      });
    },
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.server.address().port,
    received,
    until: (n, timeoutMs) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`only ${received.length} of ${n} messages in ${timeoutMs} ms`)),
          timeoutMs,
        );
        onMessage = () => {
          if (received.length >= n) {
            clearTimeout(timer);
            resolve();
          }
        };
        onMessage();
      }),
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

const cookieOf = (res) => res.headers.get('set-cookie').split(';')[0];

/** Settings given to both instances (BENCH_ENV), named in the section written. */
const tuning = Object.fromEntries(
  (process.env.BENCH_ENV ?? '')
    .split(/\s+/)
    .filter((pair) => pair !== '')
    .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
);
const db = await benchDatabase('interlock_bench_notifications');
const sink = await smtpSink();
const env = (user) => ({
  NODE_ENV: 'development',
  DATABASE_URL: db.url,
  API_KEY_PEPPER: PEPPER,
  LOG_LEVEL: 'silent',
  PLAN_FREE_MESSAGES: '1000000000',
  SMTP_URL: `smtp://${user}:secret@127.0.0.1:${sink.port}`,
  NOTIFICATION_POLL_INTERVAL: '1s',
  // The members never open a verification link: with verification required (the default with
  // SMTP_URL) they would be told nothing. The sign-ups' hashing is set-up, not the figure.
  EMAIL_VERIFICATION: 'optional',
  PASSWORD_SCRYPT_LOG_N: '14',
  ...tuning,
});
const profile = process.env.BENCH_CPU_PROF
  ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
  : [];
const checkout = process.env.BENCH_CHECKOUT ?? root;
const a = await startService(env('instance-a'), profile, checkout);
const b = await startService(env('instance-b'), profile, process.env.BENCH_CHECKOUT_B ?? checkout);
try {
  const { res } = await call(a.base, 'POST', '/api/auth/sign-up', {
    body: {
      email: 'owner@bench.example.test',
      password: 'bench password',
      name: 'Owner',
      organisationName: 'Bench',
    },
  });
  const cookie = cookieOf(res);
  const { body: key } = await call(a.base, 'POST', '/api/api-keys', {
    cookie,
    body: { name: 'bench', expiry: 'never' },
  });
  const { body: roles } = await call(a.base, 'GET', '/api/roles', { cookie });
  const developer = roles.roles.find((r) => r.builtIn === 'developer').id;
  for (let i = 1; i < MEMBERS; i++) {
    const email = `member-${i}@bench.example.test`;
    const { body: invitation } = await call(a.base, 'POST', '/api/invitations', {
      cookie,
      body: { email, roleId: developer },
    });
    await call(a.base, 'POST', `/api/invitations/${invitation.token}/accept`, {
      body: { name: `Member ${i}`, password: 'bench password' },
    });
  }
  // The invitations' own emails, before the burst.
  await sink.until(MEMBERS - 1, 60_000);
  const invitations = sink.received.length;
  sink.received.length = 0;

  const total = MEMBERS * INTERRUPTS;
  const loadBefore = loadavg()[0];
  const started = Date.now();
  let next = 0;
  const bases = [a.base, b.base];
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, worker) => {
      while (next < INTERRUPTS) {
        const i = next++;
        await call(bases[(i + worker) % 2], 'POST', '/api/interrupts', {
          key: key.key,
          body: { title: `Burst ${i}`, actionRequests: [{ name: 'deploy', args: { n: i } }] },
        });
      }
    }),
  );
  const burstMs = Date.now() - started;
  const atBurstEnd = sink.received.length;
  await sink.until(total, 600_000);
  const deliveredMs = Date.now() - started;
  await new Promise((r) => setTimeout(r, 3000)); // anything sent twice would arrive now
  const pairs = new Set(sink.received.map((m) => `${m.to} ${m.interrupt}`));
  const byUser = Object.fromEntries(
    ['instance-a', 'instance-b'].map((u) => [u, sink.received.filter((m) => m.user === u).length]),
  );
  const result = {
    members: MEMBERS,
    interrupts: INTERRUPTS,
    total,
    received: sink.received.length,
    distinct: pairs.size,
    burstMs,
    atBurstEnd,
    deliveredMs,
    byUser,
    invitations,
  };
  console.log(JSON.stringify(result, null, 2));
  // Emails received per 5 s by each instance, from the burst's start (stalls show as gaps).
  const timeline = new Map();
  for (const m of sink.received) {
    const slot = Math.floor((m.at - started) / 5000) * 5;
    const row = timeline.get(slot) ?? { a: 0, b: 0 };
    row[m.user === 'instance-a' ? 'a' : 'b'] += 1;
    timeline.set(slot, row);
  }
  for (const [slot, row] of [...timeline].sort((x, y) => x[0] - y[0]))
    console.log(`${String(slot).padStart(4)} s  A ${row.a}  B ${row.b}`);
  if (sink.received.length !== total || pairs.size !== total)
    throw new Error('not every notification arrived exactly once');
  writeSection(
    'notifications',
    `## Notifications: a burst delivered by two instances (issue 30)

Command: \`npx nx run tools:bench-notifications\` — ${new Date().toISOString().slice(0, 10)}, ${machine()}, load average ${loadBefore.toFixed(2)} before the burst, ${loadavg()[0].toFixed(2)} at the end${process.env.BENCH_CHECKOUT ? ` (the service built in ${process.env.BENCH_CHECKOUT})` : ''}${
      Object.keys(tuning).length > 0
        ? `, both instances with ${Object.entries(tuning)
            .map(([k, v]) => `\`${k}=${v}\``)
            .join(' ')}`
        : ''
    }.

One organisation of ${MEMBERS} members; ${INTERRUPTS.toLocaleString('en')} interrupts opened by one key as fast as ${CONCURRENCY} concurrent requests go, alternating between two service instances on one Postgres (both in this machine's 2 cores, with the SMTP server and this driver). Every member is told of every new interrupt immediately: ${total.toLocaleString('en')} emails, each rendered from the templates and sent over SMTP to a real server on loopback (\`smtp-server\`), which records who sent it (each instance signs in as its own user).

| | |
|---|---|
| burst (all interrupts answered 201) | ${(burstMs / 1000).toFixed(1)} s |
| emails received by the burst's end | ${atBurstEnd.toLocaleString('en')} |
| last email received, from the burst's start | **${(deliveredMs / 1000).toFixed(1)} s** (goal: 60 s) |
| after the burst: emails left, time to deliver them, rate | ${(total - atBurstEnd).toLocaleString('en')}, ${((deliveredMs - burstMs) / 1000).toFixed(1)} s, ${Math.round((total - atBurstEnd) / ((deliveredMs - burstMs) / 1000)).toLocaleString('en')} / s |
| emails received | ${sink.received.length.toLocaleString('en')} |
| distinct (recipient, interrupt) pairs | ${pairs.size.toLocaleString('en')} — each exactly once |
| sent by instance A / B | ${byUser['instance-a'].toLocaleString('en')} / ${byUser['instance-b'].toLocaleString('en')} |
`,
  );
} finally {
  await a.stop();
  await b.stop();
  await sink.stop();
  await db.stop();
}
