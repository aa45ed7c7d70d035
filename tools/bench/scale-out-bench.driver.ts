/**
 * Scale-out benchmark driver (run by scale-out.bench.mjs, TEST_DATABASE_URL = a superuser URL):
 * the scale-out test's topology — HAProxy in front of two instances, their pools through
 * PgBouncer in transaction mode, LISTEN and migrations direct — measured with more samples,
 * beside the same two instances with their pools direct. Prints one JSON document.
 */
import { performance } from 'node:perf_hooks';
import { ServiceProcess, startServiceProcess } from '../../apps/api/test/support/service-process';
import { SseClient } from '../../apps/api/test/support/sse-client';
import { createTestDatabase, TestDatabase } from '../../apps/api/test/support/test-database';
import {
  ensureHaproxyAndPgbouncer,
  freePort,
  HaProxy,
  load,
  LoadResult,
  percentile,
  PgBouncer,
  startHaProxy,
  startPgBouncer,
} from '../../apps/api/test/support/scale-out-topology';

const PEPPER = 'bench-pepper-0123456789-0123456789-01234';
const DRAIN_DELAY_MS = 2_000;
const APPENDS = 500;
const REVOKES = 30;
const log = (m: string) => process.stderr.write(`[bench] ${new Date().toISOString()} ${m}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const stats = (xs: number[]) => ({
  p50: percentile(xs, 50),
  p99: percentile(xs, 99),
  max: Math.max(...xs),
  n: xs.length,
});

interface Topology {
  db: TestDatabase;
  bouncer?: PgBouncer;
  balancer: HaProxy;
  env: Record<string, string>;
  ports: { a: number; b: number };
  instances: { a?: ServiceProcess; b?: ServiceProcess };
  cookie: string;
}

async function topology(pool: 'pgbouncer' | 'direct'): Promise<Topology & { startMs: number }> {
  const db = await createTestDatabase();
  const bouncer = pool === 'pgbouncer' ? await startPgBouncer(db.url, 'transaction') : undefined;
  const ports = { a: await freePort(), b: await freePort() };
  const balancer = await startHaProxy([
    { name: 'a', port: ports.a },
    { name: 'b', port: ports.b },
  ]);
  const env = {
    DATABASE_URL: bouncer ? bouncer.url(db.name) : db.url,
    DATABASE_DIRECT_URL: db.url,
    API_KEY_PEPPER: PEPPER,
    SHUTDOWN_DRAIN_DELAY_MS: String(DRAIN_DELAY_MS),
    SHUTDOWN_TIMEOUT_MS: '15000',
  };
  const started = performance.now();
  const [a, b] = await Promise.all(
    [ports.a, ports.b].map((port) => startServiceProcess({ ...env, PORT: String(port) })),
  );
  await balancer.waitFor(['a', 'b'], 'UP');
  const startMs = performance.now() - started;
  const signUp = await fetch(`${balancer.baseUrl}/api/auth/sign-up`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email: 'bench@example.test',
      password: 'bench password',
      name: 'Bench',
      organisationName: 'Bench',
    }),
  });
  const cookie = (signUp.headers.get('set-cookie') ?? '').split(';')[0];
  return { db, bouncer, balancer, env, ports, instances: { a, b }, cookie, startMs };
}

async function stop(t: Topology): Promise<void> {
  for (const s of Object.values(t.instances)) if (s && s.child.exitCode === null) await s.stop();
  await t.balancer.stop();
  await t.bouncer?.stop();
  await t.db.drop();
}

async function createKey(t: Topology, s: ServiceProcess): Promise<{ id: string; key: string }> {
  const res = await fetch(`${s.baseUrl}/api/api-keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: t.cookie },
    body: JSON.stringify({ name: 'agent', expiry: 'never' }),
  });
  return (await res.json()) as { id: string; key: string };
}

/** Appends through B, one at a time, each timed to its arrival on a stream on A. */
async function liveView(t: Topology) {
  const [a, b] = [t.instances.a as ServiceProcess, t.instances.b as ServiceProcess];
  const { key } = await createKey(t, a);
  const post = (path: string, body: unknown) =>
    fetch(`${b.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify(body),
    });
  const session = (await (await post('/api/sessions', { name: 'bench' })).json()) as { id: string };
  const stream = await SseClient.open(`${a.baseUrl}/api/sessions/${session.id}/stream`, {
    cookie: t.cookie,
  });
  await stream.until(() => stream.events.length === 1);
  const delays: number[] = [];
  for (let i = 1; i <= APPENDS; i++) {
    const sent = Date.now();
    await (
      await post(`/api/sessions/${session.id}/messages`, {
        messages: [{ role: 'agent', content: `#${i}` }],
      })
    ).arrayBuffer();
    await stream.until(() => stream.messages().length === i, 5_000);
    delays.push(stream.messages()[i - 1].at - sent);
  }
  stream.close();
  return stats(delays);
}

/** Revokes through A while 16 clients call B with the key: the revoke's time, the first 401, any late 200. */
async function revocation(t: Topology) {
  const [a, b] = [t.instances.a as ServiceProcess, t.instances.b as ServiceProcess];
  // First with B idle: the revoke's own cost (commit, barrier, both acknowledgements).
  const idleMs: number[] = [];
  for (let trial = 0; trial < REVOKES; trial++) {
    const { id, key } = await createKey(t, a);
    await (await fetch(`${b.baseUrl}/api/whoami`, { headers: { 'x-api-key': key } })).arrayBuffer();
    const sent = performance.now();
    await (
      await fetch(`${a.baseUrl}/api/api-keys/${id}`, {
        method: 'DELETE',
        headers: { cookie: t.cookie },
      })
    ).arrayBuffer();
    idleMs.push(performance.now() - sent);
  }
  const revokeMs: number[] = [];
  const firstRefusalMs: number[] = [];
  let late = 0;
  let after = 0;
  for (let trial = 0; trial < REVOKES; trial++) {
    const { id, key } = await createKey(t, a);
    for (let i = 0; i < 5; i++)
      await (
        await fetch(`${b.baseUrl}/api/whoami`, { headers: { 'x-api-key': key } })
      ).arrayBuffer();
    let sent = Number.POSITIVE_INFINITY;
    let answered = Number.POSITIVE_INFINITY;
    let stopAt = Number.POSITIVE_INFINITY;
    let firstRefusal = Number.POSITIVE_INFINITY;
    const client = async () => {
      while (performance.now() < stopAt) {
        const at = performance.now();
        const res = await fetch(`${b.baseUrl}/api/whoami`, { headers: { 'x-api-key': key } });
        await res.arrayBuffer();
        if (res.status === 401) firstRefusal = Math.min(firstRefusal, performance.now());
        if (at > answered) {
          after++;
          if (res.status === 200) late++;
        }
      }
    };
    const clients = Array.from({ length: 16 }, client);
    await sleep(30);
    sent = performance.now();
    await (
      await fetch(`${a.baseUrl}/api/api-keys/${id}`, {
        method: 'DELETE',
        headers: { cookie: t.cookie },
      })
    ).arrayBuffer();
    answered = performance.now();
    stopAt = answered + 60;
    await Promise.all(clients);
    revokeMs.push(answered - sent);
    firstRefusalMs.push(firstRefusal - sent);
  }
  return {
    idle: stats(idleMs),
    revoke: stats(revokeMs),
    firstRefusal: stats(firstRefusalMs),
    lateAccepted: late,
    requestsAfter: after,
  };
}

/** 20 readers through the balancer; `act` runs after 1.5 s; reading goes on 1.5 s after it. */
async function failover(
  t: Topology,
  balancer: HaProxy,
  act: () => Promise<number>,
): Promise<LoadResult & { outOfRotationMs: number }> {
  const { key } = await createKey(t, t.instances.a ?? (t.instances.b as ServiceProcess));
  const readers = load(balancer.baseUrl, '/api/whoami', { 'x-api-key': key }, 20);
  await sleep(1_500);
  const outOfRotationMs = await act();
  await sleep(1_500);
  return { ...(await readers.stop()), outOfRotationMs };
}

async function kill(
  t: Topology,
  balancer: HaProxy,
  name: 'a' | 'b',
  signal: 'SIGKILL' | 'SIGTERM',
): Promise<number> {
  const s = t.instances[name] as ServiceProcess;
  const exited = new Promise((r) => s.child.once('exit', r));
  const at = performance.now();
  s.child.kill(signal);
  await balancer.waitFor([name], 'DOWN');
  const ms = performance.now() - at;
  await exited;
  t.instances[name] = undefined;
  return ms;
}

async function restart(t: Topology, name: 'a' | 'b', balancer: HaProxy): Promise<void> {
  t.instances[name] = await startServiceProcess({ ...t.env, PORT: String(t.ports[name]) });
  await balancer.waitFor([name], 'UP');
}

async function main() {
  ensureHaproxyAndPgbouncer();
  const results: Record<string, unknown> = {};
  for (const pool of ['direct', 'pgbouncer'] as const) {
    log(`topology with the pools ${pool}`);
    const t = await topology(pool);
    try {
      const liveViewMs = await liveView(t);
      log(`${pool}: Live View ${JSON.stringify(liveViewMs)}`);
      const revoke = await revocation(t);
      log(`${pool}: revocation ${JSON.stringify(revoke)}`);
      const entry: Record<string, unknown> = { startMs: t.startMs, liveViewMs, revoke };
      if (pool === 'pgbouncer') {
        entry.sigkill = await failover(t, t.balancer, () => kill(t, t.balancer, 'a', 'SIGKILL'));
        log(`SIGKILL ${JSON.stringify(entry.sigkill)}`);
        await restart(t, 'a', t.balancer);
        entry.sigterm = await failover(t, t.balancer, () => kill(t, t.balancer, 'b', 'SIGTERM'));
        log(`SIGTERM ${JSON.stringify(entry.sigterm)}`);
        await restart(t, 'b', t.balancer);
        // The same SIGKILL through a balancer that does not retry: what the retries save.
        const bare = await startHaProxy(
          [
            { name: 'a', port: t.ports.a },
            { name: 'b', port: t.ports.b },
          ],
          { interMs: 200, fall: 2, rise: 2, retries: false },
        );
        try {
          await bare.waitFor(['a', 'b'], 'UP');
          entry.sigkillWithoutRetries = await failover(t, bare, () =>
            kill(t, bare, 'a', 'SIGKILL'),
          );
          log(`SIGKILL without retries ${JSON.stringify(entry.sigkillWithoutRetries)}`);
        } finally {
          await bare.stop();
        }
      }
      results[pool] = entry;
    } finally {
      await stop(t);
    }
  }
  process.stdout.write(JSON.stringify(results));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
