import { Agent, request } from 'node:http';
import {
  HELD_WAIT_HEAP_BYTES,
  HELD_WAIT_HEAP_RESERVE_BYTES,
  heldWaitsHeapHolds,
} from '../src/interrupts/held-wait-capacity.util';
import { INSTANCE_WAIT_CAP_MESSAGE } from '../src/interrupts/interrupt-waits';
import { createMigratedTestDatabase } from './support/migrated-database';
import { ServiceProcess, startServiceProcess } from './support/service-process';
import { TestDatabase } from './support/test-database';
import { waitFor } from './support/wait-for';

const PEPPER = 'wait-limit-pepper-0123456789abcdef012345';
const MIB = 2 ** 20;
/** About as many waits as the small heap below should hold (the service works the figure out). */
const ABOUT = 150;
/** Waits sent past the limit. */
const PAST = 5;
/**
 * The service's --max-old-space-size: V8's heap limit is that plus its young generation (48 MB on
 * 64-bit Node), and the service holds what is left past its reserve.
 */
const OLD_SPACE_MB =
  Math.ceil((HELD_WAIT_HEAP_RESERVE_BYTES + ABOUT * HELD_WAIT_HEAP_BYTES) / MIB) - 48;

interface Answer {
  status: number;
  retryAfter: string | undefined;
  body: Record<string, unknown>;
}

// SPEC §8e (D): without WAITS_MAX_PER_INSTANCE an instance holds what its heap holds (at most
// 20,000), worked out at start from V8's heap limit and logged; past it a wait on an open
// interrupt is refused 503 — the instance never runs out of heap holding waits (issue 37 §6: the
// image's 192 MB heap ran out at 10,000 and the process exited). The built service in its own
// process, with a small heap, on real Postgres.
describe('the held waits an instance holds follow its heap', () => {
  let db: TestDatabase;
  let service: ServiceProcess;
  let cookie: string;
  let key: string;

  const post = async (path: string, body: unknown, headers: Record<string, string>) =>
    fetch(`${service.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    db = await createMigratedTestDatabase();
    service = await startServiceProcess({
      DATABASE_URL: db.url,
      API_KEY_PEPPER: PEPPER,
      LOG_LEVEL: 'info',
      NODE_OPTIONS: `--max-old-space-size=${OLD_SPACE_MB}`,
    });
    const signUp = await post(
      '/api/auth/sign-up',
      {
        email: 'waits@example.test',
        password: 'a long password',
        name: 'Waits',
        organisationName: 'Waits',
      },
      {},
    );
    expect(signUp.status).toBe(201);
    cookie = (signUp.headers.get('set-cookie') ?? '').split(';')[0];
    const created = await post('/api/api-keys', { name: 'agent', expiry: 'never' }, { cookie });
    expect(created.status).toBe(201);
    key = ((await created.json()) as { key: string }).key;
  });
  afterAll(async () => {
    if (service) expect(await service.stop()).toBe(0);
    await db?.drop();
  });

  it('logs the limit it derived from its heap, holds that many waits and answers 503 past it', async () => {
    const line = service
      .output()
      .split('\n')
      .find((l) => l.includes('"msg":"held waits: at most'));
    expect(line).toBeDefined();
    const logged = JSON.parse(line as string) as {
      waitsMaxPerInstance: number;
      heapHolds: number;
      heapLimitBytes: number;
      source: string;
    };
    expect(logged.source).toBe('heap');
    expect(logged.waitsMaxPerInstance).toBe(heldWaitsHeapHolds(logged.heapLimitBytes));
    const limit = logged.waitsMaxPerInstance;
    // The heap given is the one asked for: the limit is near ABOUT, whatever rounding V8 did.
    expect(limit).toBeGreaterThan(ABOUT / 2);
    expect(limit).toBeLessThan(ABOUT * 2);

    const opened = await post(
      '/api/interrupts',
      { title: 'Deploy', actionRequests: [{ name: 'deploy' }] },
      { 'x-api-key': key },
    );
    expect(opened.status).toBe(201);
    const { id } = (await opened.json()) as { id: string };

    // limit + PAST waits at once, each on its own connection. While none of them ends — a 60 s
    // hold ends after 30 s at the soonest — exactly `limit` are held and PAST are refused: a wait
    // is counted from before its first read, and refused past the limit after it.
    const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
    const answers: Answer[] = [];
    const sent: ReturnType<typeof request>[] = [];
    const wait = () =>
      new Promise<Answer | undefined>((resolve) => {
        const url = new URL(`${service.baseUrl}/api/interrupts/${id}?waitSeconds=60`);
        const req = request(
          { agent, host: url.hostname, port: url.port, path: url.pathname + url.search },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (text += chunk));
            res.on('end', () => {
              const answer = {
                status: res.statusCode ?? 0,
                retryAfter: res.headers['retry-after'] as string | undefined,
                body: JSON.parse(text) as Record<string, unknown>,
              };
              answers.push(answer);
              resolve(answer);
            });
          },
        );
        req.setHeader('x-api-key', key);
        // A request whose client left (below) has no answer.
        req.on('error', () => undefined);
        req.on('close', () => resolve(undefined));
        req.end();
        sent.push(req);
      });
    const held = Array.from({ length: limit + PAST }, wait);
    await waitFor(async () => answers.length >= PAST, `${PAST} waits refused`, 120_000);
    expect(answers).toHaveLength(PAST);
    for (const refused of answers) {
      expect(refused.status).toBe(503);
      expect(refused.retryAfter).toBe('5');
      expect(refused.body).toMatchObject({
        statusCode: 503,
        code: 'SERVICE_UNAVAILABLE',
        message: INSTANCE_WAIT_CAP_MESSAGE,
      });
    }
    // The held waits' clients leave: their slots are free again (nothing is read for them).
    for (const req of sent) req.destroy();
    await Promise.all(held);
    expect(answers).toHaveLength(PAST);

    // Once the instance has seen them leave, a wait is held again (a short one: 200 `open` at
    // its end) where it was refused.
    const shortWait = async () =>
      (
        await fetch(`${service.baseUrl}/api/interrupts/${id}?waitSeconds=1`, {
          headers: { 'x-api-key': key },
        })
      ).status;
    await waitFor(async () => (await shortWait()) === 200, 'a wait held again', 60_000);
    agent.destroy();
    // Alive and serving.
    expect(service.child.exitCode).toBeNull();
    expect((await fetch(`${service.baseUrl}/health/ready`)).status).toBe(200);
  });
});
