import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { INTERRUPT_SETTLED_CHANNEL, InterruptWaits } from '../src/interrupts/interrupt-waits';
import { InterruptsRepository } from '../src/interrupts/interrupts.repository';
import { NotificationBus } from '../src/notifications/notification-bus';
import { createApiKey, openInterrupt, signUpOwner, SignedUpOwner } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(condition: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

// SPEC §8e: GET /api/interrupts/{id}?waitSeconds=N — held while open, woken across instances by
// the notification bus, no database read while it waits, released when its client leaves.
describe('waiting for an answer (GET /api/interrupts/{id}?waitSeconds)', () => {
  let a: TestApp;
  let b: TestApp;
  let owner: SignedUpOwner;
  let key: string;

  const on = (t: TestApp) => request(t.app.getHttpServer());
  const wait = (t: TestApp, id: string, seconds: number | string) =>
    on(t).get(`/api/interrupts/${id}?waitSeconds=${seconds}`).set('x-api-key', key);
  const decide = (t: TestApp, id: string, actionName = 'deploy') =>
    on(t)
      .post(`/api/interrupts/${id}/decisions`)
      .set('cookie', owner.cookie)
      .send({ actionName, decision: 'approve' });

  beforeAll(async () => {
    a = await startTestApp();
    // A second instance of the service on the same database: its own bus listener, its own waits.
    b = await startTestApp({ databaseUrl: a.database.url });
    owner = await signUpOwner(a.app.getHttpServer());
    ({ key } = await createApiKey(a.app.getHttpServer(), owner.cookie));
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('a wait held on instance A answers the decision made on instance B, without reading while it waits', async () => {
    const { id } = await openInterrupt(a.app.getHttpServer(), key, { actions: ['deploy'] });
    const reads = jest.spyOn(a.app.get(InterruptsRepository), 'readRecords');
    // Every statement any pg connection of this process runs — both instances' pools, their
    // control connections and listeners — that reads this interrupt: one on the interrupts tables
    // that names its id (in its text or its parameters) or returns a row holding it. The
    // instances' background jobs run meanwhile; a job that scans the interrupts table without
    // naming or returning this one (it has no deadline) is not a read of it, nor is the
    // notification worker claiming the "new interrupt" message about it (its rows carry the id).
    const aboutIt: string[] = [];
    const onInterrupts = /\b(?:from|join|update|into)\s+interrupt/i;
    const mentions = (...parts: unknown[]) => JSON.stringify(parts).includes(id);
    const pgQuery = Client.prototype.query as (...args: unknown[]) => unknown;
    const statements = jest
      .spyOn(Client.prototype as unknown as { query: (...args: unknown[]) => unknown }, 'query')
      .mockImplementation(function (this: Client, ...args: unknown[]) {
        const [first, second] = args;
        const config = (typeof first === 'object' && first !== null ? first : {}) as {
          text?: string;
          values?: unknown[];
        };
        const text = typeof first === 'string' ? first : (config.text ?? '');
        const read = onInterrupts.test(text);
        if (read && mentions(text, Array.isArray(second) ? second : config.values))
          aboutIt.push(text);
        const returned = (rows: unknown) => {
          if (read && mentions(rows)) aboutIt.push(`(returned it) ${text}`);
        };
        const last = args.at(-1);
        if (typeof last === 'function') {
          args[args.length - 1] = (error: unknown, result?: { rows?: unknown }) => {
            returned(result?.rows);
            return (last as (...a: unknown[]) => unknown)(error, result);
          };
        }
        const result = pgQuery.apply(this, args);
        if (result instanceof Promise)
          result.then(
            (r: { rows?: unknown } | undefined) => returned(r?.rows),
            () => undefined,
          );
        return result;
      });
    try {
      const held = wait(a, id, 30).then((res) => res);
      await until(() => a.app.get(InterruptWaits).waiting === 1, 'the wait to be held');
      expect(reads).toHaveBeenCalledTimes(1);
      // The wait's own first read was seen: the count below watches the statements that matter.
      expect(aboutIt.length).toBeGreaterThan(0);
      const beforeHold = aboutIt.length;
      // Held for a while: nothing more is read, by any path.
      await sleep(500);
      expect(aboutIt.slice(beforeHold)).toEqual([]);
      expect(reads).toHaveBeenCalledTimes(1);
      expect((await decide(b, id)).status).toBe(201);
      const decidedAt = Date.now();
      const res = await held;
      const wokenAfterMs = Date.now() - decidedAt;
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id,
        status: 'answered',
        decisions: [{ actionName: 'deploy', decision: 'approve' }],
      });
      // Woken by the announcement, not by its 30 s.
      expect(wokenAfterMs).toBeLessThan(10_000);
      expect(reads).toHaveBeenCalledTimes(2);
      expect(a.app.get(InterruptWaits).size).toBe(0);
    } finally {
      statements.mockRestore();
      reads.mockRestore();
    }
  });

  it('a wait asked again after its time ran out is held without a first read; a decision between the two answers the next at once', async () => {
    // Known open only while the bus is healthy (a probe late on a loaded machine is not): rounds.
    const firstReads: number[] = [];
    for (let round = 0; round < 3 && !firstReads.includes(0); round++) {
      await until(() => a.app.get(NotificationBus).healthy, 'the bus to be healthy');
      const { id } = await openInterrupt(a.app.getHttpServer(), key, { actions: ['deploy'] });
      expect((await wait(a, id, 1)).body.status).toBe('open');
      const reads = jest.spyOn(a.app.get(InterruptsRepository), 'readRecords');
      try {
        const held = wait(a, id, 30).then((res) => res);
        await until(() => a.app.get(InterruptWaits).waiting === 1, 'the wait to be held');
        firstReads.push(reads.mock.calls.length);
        expect((await decide(b, id)).status).toBe(201);
        const res = await held;
        expect(res.body).toMatchObject({ id, status: 'answered' });
        // Its answer is read as ever.
        expect(reads).toHaveBeenCalledTimes(firstReads[round] + 1);
      } finally {
        reads.mockRestore();
      }
    }
    expect(firstReads).toContain(0);
    // Decided on the other instance after the first wait's answer: the next wait answers it at
    // once, not after its 30 s (the announcement made the interrupt no longer known open).
    const { id } = await openInterrupt(a.app.getHttpServer(), key, { actions: ['deploy'] });
    expect((await wait(a, id, 1)).body.status).toBe('open');
    expect((await decide(b, id)).status).toBe(201);
    const startedAt = Date.now();
    const res = await wait(a, id, 30);
    expect(res.body).toMatchObject({ id, status: 'answered' });
    expect(Date.now() - startedAt).toBeLessThan(10_000);
    expect(a.app.get(InterruptWaits).size).toBe(0);
  });

  it('an interrupt that is not open is answered at once', async () => {
    const { id } = await openInterrupt(a.app.getHttpServer(), key, { actions: ['deploy'] });
    expect((await decide(a, id)).status).toBe(201);
    const startedAt = Date.now();
    const res = await wait(b, id, 60);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('answered');
    expect(Date.now() - startedAt).toBeLessThan(10_000);
  });

  it('a decision that leaves the interrupt open does not end the wait', async () => {
    const { id } = await openInterrupt(a.app.getHttpServer(), key, {
      actions: ['deploy', 'notify'],
    });
    const held = wait(a, id, 30).then((res) => res);
    await until(() => a.app.get(InterruptWaits).waiting === 1, 'the wait to be held');
    expect((await decide(b, id, 'deploy')).status).toBe(201);
    await sleep(300);
    expect(a.app.get(InterruptWaits).size).toBe(1);
    expect((await decide(b, id, 'notify')).status).toBe(201);
    const res = await held;
    expect(res.body.status).toBe('answered');
    expect(res.body.decisions).toHaveLength(2);
  });

  it('a wait whose time runs out answers the current state, 200 open', async () => {
    const { id } = await openInterrupt(a.app.getHttpServer(), key);
    const startedAt = Date.now();
    const res = await wait(a, id, 1);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(1_000);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, status: 'open', decisions: [] });
    expect(a.app.get(InterruptWaits).size).toBe(0);
  });

  it('waitSeconds=0 and no waitSeconds answer at once; include works with a wait', async () => {
    const { id } = await openInterrupt(a.app.getHttpServer(), key);
    expect((await wait(a, id, 0)).body.status).toBe('open');
    const held = on(a)
      .get(`/api/interrupts/${id}?waitSeconds=30&include=session`)
      .set('x-api-key', key)
      .then((res) => res);
    await until(() => a.app.get(InterruptWaits).waiting === 1, 'the wait to be held');
    expect((await decide(b, id)).status).toBe(201);
    const res = await held;
    expect(res.body.status).toBe('answered');
    expect(res.body.session).toBeNull();
    expect(res.body.decisions).toHaveLength(1);
  });

  it.each(['61', '-1', '1.5', 'soon'])(
    'waitSeconds=%s answers 400 VALIDATION_FAILED',
    async (value) => {
      const message = 'waitSeconds must be an integer from 0 to 60';
      const { id } = await openInterrupt(a.app.getHttpServer(), key);
      const res = await wait(a, id, value);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED', message });
    },
  );

  it("an unknown or another organisation's interrupt answers 404 at once", async () => {
    const other = await signUpOwner(a.app.getHttpServer(), { organisationName: 'Elsewhere' });
    const { id } = await openInterrupt(
      a.app.getHttpServer(),
      (await createApiKey(a.app.getHttpServer(), other.cookie)).key,
    );
    const res = await wait(a, id, 30);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'NOT_FOUND', message: 'Not found.' });
    expect(a.app.get(InterruptWaits).size).toBe(0);
  });

  it('a held wait that runs out within 10 s spends one request, at its end (interrupt-wait-budget.e2e-spec.ts has the rest)', async () => {
    const { id } = await openInterrupt(a.app.getHttpServer(), key);
    let first = await on(a).get(`/api/interrupts/${id}`).set('x-api-key', key);
    // The three requests compare one window's remaining budget: start in a window with time left
    // (the full run once met a new window between them and saw the budget refilled).
    const resetSeconds = Number(first.headers['ratelimit-reset']);
    if (resetSeconds < 8) {
      await new Promise((resolve) => setTimeout(resolve, (resetSeconds + 1) * 1000));
      first = await on(a).get(`/api/interrupts/${id}`).set('x-api-key', key);
    }
    const held = await wait(a, id, 2);
    const after = await on(a).get(`/api/interrupts/${id}`).set('x-api-key', key);
    // Held, it spent nothing up front: it says what was left then.
    expect(Number(held.headers['ratelimit-remaining'])).toBe(
      Number(first.headers['ratelimit-remaining']),
    );
    expect(Number(after.headers['ratelimit-remaining'])).toBe(
      Number(first.headers['ratelimit-remaining']) - 2,
    );
  });

  it('a client that disconnects is released at once, and the instance keeps serving', async () => {
    const { id } = await openInterrupt(a.app.getHttpServer(), key);
    const server = a.app.getHttpServer();
    if (!server.listening)
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const req = httpRequest({
      host: '127.0.0.1',
      port,
      path: `/api/interrupts/${id}?waitSeconds=60`,
      headers: { 'x-api-key': key },
    });
    req.on('error', () => undefined);
    req.end();
    await until(() => a.app.get(InterruptWaits).waiting === 1, 'the wait to be held');
    req.destroy();
    await until(() => a.app.get(InterruptWaits).size === 0, 'the wait to be released', 5_000);
    expect((await decide(a, id)).status).toBe(201);
    expect((await wait(a, id, 5)).body.status).toBe('answered');
  });

  it('a bus reconnect reads the held interrupts in one statement and wakes only the waits whose interrupt left open meanwhile', async () => {
    const waits = a.app.get(InterruptWaits);
    const statuses = jest.spyOn(a.app.get(InterruptsRepository), 'readStatuses');
    const listener = () => (a.app.get(NotificationBus) as unknown as { client: Client }).client;
    try {
      const decided = await openInterrupt(a.app.getHttpServer(), key);
      const open = await openInterrupt(a.app.getHttpServer(), key);
      const heldDecided = wait(a, decided.id, 60).then((res) => res);
      const heldOpen = wait(a, open.id, 60).then((res) => res);
      await until(() => waits.waiting === 2, 'both waits to be held');
      // A decision A never hears of (as one committed while its listener was down): A stops
      // listening for settled interrupts, B decides, then A's listener connection is cut.
      await listener().query(`UNLISTEN ${INTERRUPT_SETTLED_CHANNEL}`);
      expect((await decide(b, decided.id)).status).toBe(201);
      const cut = listener();
      const [{ pid }] = (await cut.query('SELECT pg_backend_pid() AS pid')).rows;
      await a.app.get(DataSource).query('SELECT pg_terminate_backend($1)', [pid]);
      const cutAt = Date.now();
      const res = await heldDecided;
      // Woken by the reconnect, not by its 60 s.
      expect(Date.now() - cutAt).toBeLessThan(30_000);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: decided.id, status: 'answered' });
      expect(listener()).not.toBe(cut);
      // One read of both held interrupts' statuses; the wait whose interrupt is open still holds.
      expect(statuses).toHaveBeenCalledTimes(1);
      expect(new Set(statuses.mock.calls[0][2])).toEqual(new Set([decided.id, open.id]));
      expect(waits.waiting).toBe(1);
      expect((await decide(b, open.id)).status).toBe(201);
      expect((await heldOpen).body).toMatchObject({ id: open.id, status: 'answered' });
    } finally {
      statuses.mockRestore();
    }
  });

  it('stopping the instance answers its held waits at once with the current state', async () => {
    const { id } = await openInterrupt(b.app.getHttpServer(), key);
    const startedAt = Date.now();
    const held = wait(b, id, 60).then((res) => res);
    await until(() => b.app.get(InterruptWaits).waiting === 1, 'the wait to be held');
    b.app.get(InterruptWaits).stopWaiting();
    const res = await held;
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('open');
    expect(Date.now() - startedAt).toBeLessThan(10_000);
  });
});
