import { Client } from 'pg';
import { Webhook } from 'standardwebhooks';
import { createMigratedTestDatabase } from './support/migrated-database';
import { TestDatabase } from './support/test-database';
import { ServiceProcess, startServiceProcess } from './support/service-process';
import { WebhookReceiver } from './support/webhook-receiver';

const PEPPER = 'webhook-process-pepper-0123456789abcdef';

async function call(
  baseUrl: string,
  method: string,
  path: string,
  init: { cookie?: string; key?: string; body?: unknown } = {},
) {
  const headers: Record<string, string> = {};
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (init.cookie !== undefined) headers.cookie = init.cookie;
  if (init.key !== undefined) headers['x-api-key'] = init.key;
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: text === '' ? undefined : JSON.parse(text),
  };
}

/** An organisation with a key and a webhook to `url` for interrupt.created, set up through `baseUrl`. */
async function organisation(baseUrl: string, url: string) {
  const signUp = await call(baseUrl, 'POST', '/api/auth/sign-up', {
    body: {
      email: `ops-${Date.now()}@example.test`,
      password: 'a long password',
      name: 'Ops',
      organisationName: 'Hooks',
    },
  });
  expect(signUp.status).toBe(201);
  const cookie = (signUp.headers.get('set-cookie') ?? '').split(';')[0];
  const key = await call(baseUrl, 'POST', '/api/api-keys', {
    cookie,
    body: { name: 'agent', expiry: 'never' },
  });
  const hook = await call(baseUrl, 'POST', '/api/webhooks', {
    cookie,
    body: { url, eventTypes: ['interrupt.created'] },
  });
  expect(hook.status).toBe(201);
  return {
    cookie,
    key: key.body.key as string,
    webhookId: hook.body.id as string,
    secret: hook.body.secret as string,
  };
}

/** Opens `count` interrupts, `parallel` at a time, spreading them over the given instances. */
async function openInterrupts(
  baseUrls: string[],
  key: string,
  count: number,
  parallel = 8,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        const n = next++;
        const res = await call(baseUrls[n % baseUrls.length], 'POST', '/api/interrupts', {
          key,
          body: { title: `Event ${n}`, actionRequests: [{ name: 'go' }] },
        });
        if (res.status !== 201)
          throw new Error(`interrupt ${n}: ${res.status} ${JSON.stringify(res.body)}`);
      }
    }),
  );
}

async function deliveryCounts(db: TestDatabase): Promise<Record<string, number>> {
  const client = new Client({ connectionString: db.url });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT status, count(*)::int AS n FROM webhook_deliveries GROUP BY status`,
    );
    return Object.fromEntries(rows.map((r: { status: string; n: number }) => [r.status, r.n]));
  } finally {
    await client.end();
  }
}

/**
 * Ends the lease of the claimed delivery of `eventId` (it is due now, as when its time runs out);
 * returns how long the lease was, in ms.
 */
async function endLease(db: TestDatabase, eventId: string): Promise<number> {
  const client = new Client({ connectionString: db.url });
  await client.connect();
  try {
    const { rows } = await client.query(
      `UPDATE webhook_deliveries d SET due_at = now()
         FROM webhook_deliveries was
        WHERE d.organisation_id = was.organisation_id AND d.id = was.id
          AND d.event_id = $1 AND d.status = 'delivering'
       RETURNING (extract(epoch FROM was.due_at - was.last_attempt_at) * 1000)::int AS ms`,
      [eventId],
    );
    expect(rows).toHaveLength(1);
    return (rows[0] as { ms: number }).ms;
  } finally {
    await client.end();
  }
}

async function untilAllSucceeded(
  db: TestDatabase,
  total: number,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const counts = await deliveryCounts(db);
    if (counts.succeeded === total) return;
    if (Date.now() > deadline)
      throw new Error(`deliveries not all succeeded: ${JSON.stringify(counts)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const attemptsLogged = (p: ServiceProcess) =>
  (p.output().match(/"msg":"webhook delivery attempt"/g) ?? []).length;

describe('webhook delivery across service processes (SKIP LOCKED)', () => {
  let db: TestDatabase;
  let a: ServiceProcess;
  let b: ServiceProcess;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    db = await createMigratedTestDatabase();
    await receiver.start();
    const env = {
      DATABASE_URL: db.url,
      API_KEY_PEPPER: PEPPER,
      PLAN_FREE_MESSAGES: '100000',
      WEBHOOK_POLL_INTERVAL: '200ms',
      WEBHOOK_RETRY_SCHEDULE: '1s',
    };
    a = await startServiceProcess(env);
    b = await startServiceProcess(env);
  });
  afterAll(async () => {
    expect(await a.stop()).toBe(0);
    expect(await b.stop()).toBe(0);
    await receiver.stop();
    await db.drop();
  });

  it('two processes deliver 1,000 events to one receiver: each webhook-id exactly once', async () => {
    const org = await organisation(a.baseUrl, receiver.url);
    await openInterrupts([a.baseUrl, b.baseUrl], org.key, 1000);
    await untilAllSucceeded(db, 1000, 300_000);
    await new Promise((resolve) => setTimeout(resolve, 500));

    const perId = new Map<string, number>();
    for (const req of receiver.requests)
      perId.set(req.headers['webhook-id'], (perId.get(req.headers['webhook-id']) ?? 0) + 1);
    expect(perId.size).toBe(1000);
    expect([...perId.values()].every((n) => n === 1)).toBe(true);
    expect(receiver.requests).toHaveLength(1000);
    const titles = new Set(receiver.events().map((e) => (e.data as { title: string }).title));
    expect(titles.size).toBe(1000);
    const hook = new Webhook(org.secret);
    for (const req of receiver.requests) hook.verify(req.body, req.headers);
    // Both instances took part.
    expect(attemptsLogged(a)).toBeGreaterThan(0);
    expect(attemptsLogged(b)).toBeGreaterThan(0);
    expect(attemptsLogged(a) + attemptsLogged(b)).toBeGreaterThanOrEqual(1000);
    // Functional bounds, not performance ones: opening 1,000 interrupts and delivering them took
    // more than 180 s beside the browser suite in a fresh-clone CI run (load ~15 on 2 cores).
  }, 420_000);
});

describe('webhook delivery when a process is killed mid-delivery', () => {
  let db: TestDatabase;
  const receiver = new WebhookReceiver();
  const env = () => ({
    DATABASE_URL: db.url,
    API_KEY_PEPPER: PEPPER,
    WEBHOOK_POLL_INTERVAL: '100ms',
    WEBHOOK_CONCURRENCY: '1',
    // A claim is a lease of 2 × timeout + 5 s: a killed process's delivery is due again after 45 s
    // (the test ends the lease itself, below). Long enough that the held request is still in
    // flight when the process is killed, even on a loaded machine: the first delivery is held
    // while the test is still opening interrupts, and with 2 s, then 5 s, it once timed out first
    // in a full `npm test` (the next delivery was then the one in flight, and both were sent twice).
    WEBHOOK_TIMEOUT: '20s',
  });
  let survivor: ServiceProcess | undefined;

  beforeAll(async () => {
    db = await createMigratedTestDatabase();
    await receiver.start();
  });
  afterAll(async () => {
    await survivor?.stop();
    await receiver.stop();
    await db.drop();
  });

  it('SIGKILL, restart: nothing lost, only the delivery in flight sent again', async () => {
    // The first request is held unanswered: that delivery is in flight when the process dies.
    receiver.answerWith((_req, index) => (index === 0 ? 'hold' : { status: 204 }));
    const doomed = await startServiceProcess(env());
    const org = await organisation(doomed.baseUrl, receiver.url);
    await openInterrupts([doomed.baseUrl], org.key, 10, 2);
    await receiver.until(() => receiver.requests.length >= 1, 10_000);
    const inFlight = receiver.requests[0].headers['webhook-id'];
    // The endpoint has more than one slot: the others are sent while the first is held. Killed
    // once they are all recorded, the held one is the only delivery in flight (killed earlier, on
    // a loaded machine, a delivery answered but not yet recorded was sent twice too).
    await untilAllSucceeded(db, 9, 60_000);
    doomed.child.kill('SIGKILL');
    await new Promise((resolve) => doomed.child.once('exit', resolve));

    // The dead process's claim is a lease of 2 × WEBHOOK_TIMEOUT + 5 s, so no attempt outlives it.
    // Its end is made now rather than waited for (45 s of an idle test): the survivor meets the
    // row exactly as it would once the clock got there.
    expect(await endLease(db, inFlight)).toBe(45_000);
    survivor = await startServiceProcess(env());
    await untilAllSucceeded(db, 10, 120_000);
    await new Promise((resolve) => setTimeout(resolve, 300));

    const perId = new Map<string, number>();
    for (const req of receiver.requests)
      perId.set(req.headers['webhook-id'], (perId.get(req.headers['webhook-id']) ?? 0) + 1);
    expect(perId.size).toBe(10);
    expect([...perId.entries()].filter(([, n]) => n > 1)).toEqual([[inFlight, 2]]);
    expect(receiver.requests).toHaveLength(11);

    const res = await call(
      survivor.baseUrl,
      'GET',
      `/api/webhooks/${org.webhookId}/deliveries?limit=20`,
      { cookie: org.cookie },
    );
    const repeated = (
      res.body.deliveries as {
        eventId: string;
        attempts: { responseStatus: number | null; error: string | null }[];
      }[]
    ).find((d) => d.eventId === inFlight);
    expect(repeated?.attempts.map((x) => [x.responseStatus, x.error])).toEqual([
      [
        null,
        'No result: the instance that claimed this delivery stopped before it recorded an answer.',
      ],
      [204, null],
    ]);
  }, 240_000);
});
