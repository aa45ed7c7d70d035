import { get, IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { createMigratedTestDatabase } from './support/migrated-database';
import { TestDatabase } from './support/test-database';
import { ServiceProcess, startServiceProcess } from './support/service-process';
import { SseClient } from './support/sse-client';

// Long enough that the test's four requests fit inside the drain on a loaded machine (at 1.5 s
// they were a second's scheduling away from missing it), short beside the production default.
const DRAIN_DELAY_MS = 5_000;
const SHUTDOWN_TIMEOUT_MS = 20_000;
const onFastify = (process.env.HTTP_ADAPTER ?? 'fastify') === 'fastify';

/** A GET on a connection of its own (no keep-alive pool): what a new client does. */
function freshGet(baseUrl: string, path: string): Promise<IncomingMessage & { body: string }> {
  return new Promise((resolve, reject) => {
    get(`${baseUrl}${path}`, { agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve(Object.assign(res, { body })));
    }).on('error', reject);
  });
}

function connectionRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

// SPEC §9 and issue 17 item 9: on SIGTERM a request still running completes with its response,
// readiness is 503 at once, new connections are served (closing after their response) for the
// drain delay and refused after it, and the process exits 0 within SHUTDOWN_TIMEOUT_MS.
describe('SIGTERM drain', () => {
  let db: TestDatabase;
  let service: ServiceProcess;
  let sql: Client;

  beforeAll(async () => {
    db = await createMigratedTestDatabase();
    service = await startServiceProcess({
      DATABASE_URL: db.url,
      API_KEY_PEPPER: 'graceful-shutdown-pepper-0123456789abcdef',
      SHUTDOWN_DRAIN_DELAY_MS: String(DRAIN_DELAY_MS),
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
    });
    sql = new Client({ connectionString: db.url });
    await sql.connect();
  });
  afterAll(async () => {
    if (service.child.exitCode === null) service.child.kill('SIGKILL');
    await sql.end();
    await db.drop();
  });

  it('finishes a slow in-flight request, serves then refuses new connections, ends event streams, and exits 0 in time', async () => {
    const signUp = await fetch(`${service.baseUrl}/api/auth/sign-up`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'drain@example.test',
        password: 'a long password',
        name: 'Drain',
        organisationName: 'Drain',
      }),
    });
    const cookie = (signUp.headers.get('set-cookie') ?? '').split(';')[0];
    const { key } = (await (
      await fetch(`${service.baseUrl}/api/api-keys`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify({ name: 'agent', expiry: 'never' }),
      })
    ).json()) as { key: string };
    const open = (title: string) =>
      fetch(`${service.baseUrl}/api/interrupts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body: JSON.stringify({ title, actionRequests: [{ name: 'deploy' }] }),
      });
    const first = await open('first');
    expect(first.status).toBe(201);
    // Before the signal: the connection is kept, advertising 5 s (the server keeps it 65).
    expect(first.headers.get('connection')).toBe('keep-alive');
    expect(first.headers.get('keep-alive')).toBe('timeout=5');
    // So do the answers Fastify's router gives before the front door's hook runs (its
    // frameworkErrors): a malformed URL's 400, and a parameter over the router's length (414,
    // answered 404). Without the connection step there, Node advertises its own `timeout=65`.
    // (Express routes both on: the same headers, on its own answers.)
    const refusedByRouter = () =>
      Promise.all([
        fetch(`${service.baseUrl}/api/%zz`),
        fetch(`${service.baseUrl}/api/interrupts/${'a'.repeat(2049)}`),
      ]);
    const [badUrl, longParam] = await refusedByRouter();
    if (onFastify) {
      expect([badUrl.status, longParam.status]).toEqual([400, 404]);
      expect(await badUrl.json()).toMatchObject({
        code: 'VALIDATION_FAILED',
        message: 'path: is not a valid URL.',
      });
      expect(await longParam.json()).toMatchObject({ code: 'NOT_FOUND' });
    }
    for (const res of [badUrl, longParam]) {
      expect(res.headers.get('connection')).toBe('keep-alive');
      expect(res.headers.get('keep-alive')).toBe('timeout=5');
    }
    // A Live View stream open across the shutdown: it keeps going through the drain delay and
    // ends cleanly when the service stops accepting.
    const liveSession = (await (
      await fetch(`${service.baseUrl}/api/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body: JSON.stringify({ name: 'across the shutdown' }),
      })
    ).json()) as { id: string };
    const stream = await SseClient.open(
      `${service.baseUrl}/api/sessions/${liveSession.id}/stream`,
      { cookie },
    );
    expect(stream.status).toBe(200);
    await stream.until(() => stream.events.length === 1);

    // Slow: the next interrupt waits for this month's usage row, which the test holds.
    await sql.query('BEGIN');
    await sql.query('SELECT * FROM usage_months FOR UPDATE');
    const slow = open('slow');
    for (let i = 0; ; i++) {
      // In a transaction pg_stat_activity keeps the backends of its first look: a fresh list, so
      // a connection the service opens after that look is seen too.
      await sql.query('SELECT pg_stat_clear_snapshot()');
      const { rows } = await sql.query(
        `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'interlock-api' AND wait_event_type = 'Lock'`,
      );
      if (rows.length > 0) break;
      if (i > 200) throw new Error('the request never waited for the lock');
      await new Promise((r) => setTimeout(r, 25));
    }

    const exited = new Promise<number | null>((resolve) =>
      service.child.once('exit', (code) => resolve(code)),
    );
    const signalledAt = performance.now();
    service.child.kill('SIGTERM');

    // During the drain delay: not ready, still serving new connections, each closed after its response.
    // Not ready once the process has handled the signal (on a loaded machine that is not within
    // any fixed time), and that within the drain delay: checked below.
    let ready = await freshGet(service.baseUrl, '/health/ready');
    while (ready.statusCode !== 503 && performance.now() - signalledAt < DRAIN_DELAY_MS) {
      await new Promise((r) => setTimeout(r, 25));
      ready = await freshGet(service.baseUrl, '/health/ready');
    }
    expect(ready.statusCode).toBe(503);
    expect(JSON.parse(ready.body)).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      message: 'The service is shutting down.',
    });
    const live = await freshGet(service.baseUrl, '/health/live');
    expect(live.statusCode).toBe(200);
    expect(live.headers.connection).toBe('close');
    expect(live.headers['keep-alive']).toBeUndefined();
    const drained = await refusedByRouter();
    if (onFastify) expect(drained.map((res) => res.status)).toEqual([400, 404]);
    for (const res of drained) {
      expect(res.headers.get('connection')).toBe('close');
      expect(res.headers.get('keep-alive')).toBeNull();
      await res.arrayBuffer();
    }
    const appended = await fetch(`${service.baseUrl}/api/sessions/${liveSession.id}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify({ messages: [{ role: 'agent', content: 'during the drain' }] }),
    });
    expect(appended.status).toBe(201);
    await stream.until(() => stream.messages().length === 1);
    expect(stream.ended).toBe(false);
    expect(performance.now() - signalledAt).toBeLessThan(DRAIN_DELAY_MS);

    // After it: new connections are refused while the slow request is still waiting (once the
    // process's drain timer has fired: a loaded machine runs it late, so the refusal is awaited).
    while (performance.now() - signalledAt < DRAIN_DELAY_MS)
      await new Promise((r) => setTimeout(r, 50));
    const port = Number(new URL(service.baseUrl).port);
    const refusedBy = performance.now() + 10_000;
    while (!(await connectionRefused(port)) && performance.now() < refusedBy)
      await new Promise((r) => setTimeout(r, 50));
    expect(await connectionRefused(port)).toBe(true);
    expect(service.child.exitCode).toBeNull();
    // Ended by the drain: without it the stream would last until the process exits, after the
    // COMMIT below.
    await stream.until(() => stream.ended, 10_000);

    await sql.query('COMMIT');
    const answered = await slow;
    expect(answered.status).toBe(201);
    expect(answered.headers.get('connection')).toBe('close');
    expect(answered.headers.get('keep-alive')).toBeNull();
    expect(await answered.json()).toMatchObject({ title: 'slow', status: 'open' });

    expect(await exited).toBe(0);
    expect(performance.now() - signalledAt).toBeLessThan(SHUTDOWN_TIMEOUT_MS);
    expect(service.output()).toMatch(/"msg":"stopped"/);
  });
});
