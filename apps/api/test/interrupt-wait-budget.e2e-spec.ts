import request from 'supertest';
import { InterruptWaits } from '../src/interrupts/interrupt-waits';
import { createApiKey, openInterrupt, signUpOwner, SignedUpOwner } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(condition: () => boolean, what: string, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

const LIMITED = {
  statusCode: 429,
  error: 'Too Many Requests',
  code: 'RATE_LIMITED',
  message: 'Too many requests. Try again later.',
};

// SPEC §8e: waiting costs no requests. A key's held wait spends nothing of its organisation's
// request budget (§8b); a wait answered at once spends one like any read; a held wait ended by
// its own clock or its client within 10 s spends one at its end. Held waits are capped per
// organisation (429) and per instance (503). Real Postgres, the budget on.
describe('waiting and the request budget', () => {
  describe('with a budget of 10 requests an hour', () => {
    let t: TestApp;
    let owner: SignedUpOwner;
    const http = () => request(t.app.getHttpServer());
    const waits = () => t.app.get(InterruptWaits);
    const decide = (id: string) =>
      http()
        .post(`/api/interrupts/${id}/decisions`)
        .set('cookie', owner.cookie)
        .send({ actionName: 'deploy', decision: 'approve' });

    beforeAll(async () => {
      // An hour-long window: a test never straddles two windows, so every count below is exact.
      t = await startTestApp({
        env: { RATE_LIMIT_API_KEY_REQUESTS: '10', RATE_LIMIT_API_KEY_WINDOW_SECONDS: '3600' },
      });
    });
    afterAll(async () => {
      await t?.close();
    });
    beforeEach(async () => {
      // Each test its own organisation, so its own budget.
      owner = await signUpOwner(t.app.getHttpServer());
    });

    it('25 waits held at once — more than the whole budget — are all answered, and spend nothing', async () => {
      const { key } = await createApiKey(t.app.getHttpServer(), owner.cookie);
      const { id } = await openInterrupt(t.app.getHttpServer(), key); // 1 spent
      const before = await http().get(`/api/interrupts/${id}`).set('x-api-key', key); // 2 spent
      expect(before.status).toBe(200);
      expect(before.headers['ratelimit-remaining']).toBe('8');

      const held = Array.from({ length: 25 }, () =>
        http()
          .get(`/api/interrupts/${id}?waitSeconds=60`)
          .set('x-api-key', key)
          .then((res) => res),
      );
      // Registered and read, so each has said what was left.
      await until(() => waits().waiting === 25, 'the 25 waits to be held');
      // While they are held, the organisation's other calls are admitted as before.
      const meanwhile = await http().get(`/api/interrupts/${id}`).set('x-api-key', key); // 3 spent
      expect(meanwhile.status).toBe(200);
      expect(meanwhile.headers['ratelimit-remaining']).toBe('7');

      expect((await decide(id)).status).toBe(201); // a member's decision: not the key's budget
      const answers = await Promise.all(held);
      for (const res of answers) {
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ id, status: 'answered' });
        // A held wait says what was left when it was held, without spending it.
        expect(res.headers['ratelimit-limit']).toBe('10');
        expect(res.headers['ratelimit-remaining']).toBe('8');
      }
      const after = await http().get(`/api/interrupts/${id}`).set('x-api-key', key); // 4 spent
      expect(after.headers['ratelimit-remaining']).toBe('6');
    });

    it('a wait answered at once spends one like any read, and is refused 429 past the budget; a wait on an open interrupt is still held', async () => {
      const { key } = await createApiKey(t.app.getHttpServer(), owner.cookie);
      const answered = await openInterrupt(t.app.getHttpServer(), key); // 1
      const open = await openInterrupt(t.app.getHttpServer(), key); // 2
      expect((await decide(answered.id)).status).toBe(201);
      const remaining: string[] = [];
      for (let i = 0; i < 8; i++) {
        const res = await http()
          .get(`/api/interrupts/${answered.id}?waitSeconds=60`)
          .set('x-api-key', key);
        expect(res.status).toBe(200);
        expect(res.body.status).toBe('answered');
        remaining.push(res.headers['ratelimit-remaining']);
      }
      expect(remaining).toEqual(['7', '6', '5', '4', '3', '2', '1', '0']);
      const refused = await http()
        .get(`/api/interrupts/${answered.id}?waitSeconds=60`)
        .set('x-api-key', key);
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject(LIMITED);
      expect(refused.headers['ratelimit-remaining']).toBe('0');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      // The same refusal for a plain read and a wait of 0 s: they are no waits.
      expect((await http().get(`/api/interrupts/${open.id}`).set('x-api-key', key)).status).toBe(
        429,
      );
      expect(
        (await http().get(`/api/interrupts/${open.id}?waitSeconds=0`).set('x-api-key', key)).status,
      ).toBe(429);

      // With nothing left, a wait on an open interrupt is held all the same, and answered.
      const held = http()
        .get(`/api/interrupts/${open.id}?waitSeconds=60`)
        .set('x-api-key', key)
        .then((res) => res);
      await until(() => waits().waiting === 1, 'the wait to be held');
      expect((await decide(open.id)).status).toBe(201);
      const res = await held;
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: open.id, status: 'answered' });
      expect(res.headers['ratelimit-remaining']).toBe('0');
    });

    it('a wait that runs out of time within 10 s spends one, at its end', async () => {
      const { key } = await createApiKey(t.app.getHttpServer(), owner.cookie);
      const { id } = await openInterrupt(t.app.getHttpServer(), key); // 1
      const short = await http().get(`/api/interrupts/${id}?waitSeconds=1`).set('x-api-key', key);
      expect(short.status).toBe(200);
      expect(short.body.status).toBe('open');
      // Held, so it announced what was left before its own cost: 9.
      expect(short.headers['ratelimit-remaining']).toBe('9');
      const next = await http().get(`/api/interrupts/${id}`).set('x-api-key', key); // 2 + the wait
      expect(next.headers['ratelimit-remaining']).toBe('7');
    });

    it('a wait refused before its handler (a bad id, an unknown include, history without the plan) spends one like any request, and is refused 429 past the budget', async () => {
      const { key } = await createApiKey(t.app.getHttpServer(), owner.cookie);
      const { id } = await openInterrupt(t.app.getHttpServer(), key); // 1
      const refused = [
        ['/api/interrupts/not-an-id?waitSeconds=60', 404],
        [`/api/interrupts/${id}?waitSeconds=60&include=bogus`, 400],
        [`/api/interrupts/${id}?waitSeconds=60&include=history`, 402],
      ] as const;
      const remaining: string[] = [];
      for (let i = 0; i < 9; i++) {
        const [path, status] = refused[i % refused.length];
        const res = await http().get(path).set('x-api-key', key);
        expect(res.status).toBe(status);
        remaining.push(res.headers['ratelimit-remaining']);
      }
      expect(remaining).toEqual(['8', '7', '6', '5', '4', '3', '2', '1', '0']);
      // Nothing left: refused 429 as a plain read with the same fault would be.
      for (const [path] of refused) {
        const res = await http().get(path).set('x-api-key', key);
        expect(res.status).toBe(429);
        expect(res.body).toMatchObject(LIMITED);
      }
      expect((await http().get(`/api/interrupts/${id}`).set('x-api-key', key)).status).toBe(429);
    });

    it('a member waiting spends no key budget and is not counted against it', async () => {
      const { key } = await createApiKey(t.app.getHttpServer(), owner.cookie);
      const { id } = await openInterrupt(t.app.getHttpServer(), key); // 1
      const res = await http()
        .get(`/api/interrupts/${id}?waitSeconds=1`)
        .set('cookie', owner.cookie);
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit-remaining']).toBeUndefined();
      const next = await http().get(`/api/interrupts/${id}`).set('x-api-key', key);
      expect(next.headers['ratelimit-remaining']).toBe('8');
    });
  });

  describe('the caps on held waits (2 per organisation, 3 per instance)', () => {
    let t: TestApp;
    const http = () => request(t.app.getHttpServer());
    const waits = () => t.app.get(InterruptWaits);

    beforeAll(async () => {
      t = await startTestApp({
        env: { WAITS_MAX_PER_ORGANISATION: '2', WAITS_MAX_PER_INSTANCE: '3' },
      });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('past an organisation’s cap 429, past the instance’s 503 (both Retry-After 5); an interrupt that is not open is still answered; a released slot is free again', async () => {
      const server = t.app.getHttpServer();
      const one = await signUpOwner(server);
      const two = await signUpOwner(server);
      const keyOne = (await createApiKey(server, one.cookie)).key;
      const keyTwo = (await createApiKey(server, two.cookie)).key;
      const a = await openInterrupt(server, keyOne);
      const b = await openInterrupt(server, keyTwo);
      const done = await openInterrupt(server, keyOne);
      expect(
        (
          await http()
            .post(`/api/interrupts/${done.id}/cancel`)
            .set('x-api-key', keyOne)
            .send({ reason: 'not needed' })
        ).status,
      ).toBe(200);
      const hold = (id: string, key: string) =>
        http()
          .get(`/api/interrupts/${id}?waitSeconds=60`)
          .set('x-api-key', key)
          .then((res) => res);

      const heldOne = [hold(a.id, keyOne), hold(a.id, keyOne)];
      await until(() => waits().heldFor(one.organisationId) === 2, 'two waits held');
      const third = await hold(a.id, keyOne);
      expect(third.status).toBe(429);
      expect(third.body).toMatchObject({
        statusCode: 429,
        code: 'RATE_LIMITED',
        message:
          'Too many waiting requests: this organisation may hold 2 at once on an instance. Retry shortly.',
      });
      expect(third.headers['retry-after']).toBe('5');
      // Not open: answered at once whatever the cap.
      const settled = await hold(done.id, keyOne);
      expect(settled.status).toBe(200);
      expect(settled.body).toMatchObject({ id: done.id, status: 'withdrawn' });

      const heldTwo = hold(b.id, keyTwo);
      await until(() => waits().size === 3, 'three waits held');
      const past = await hold(b.id, keyTwo);
      expect(past.status).toBe(503);
      expect(past.body).toMatchObject({
        statusCode: 503,
        code: 'SERVICE_UNAVAILABLE',
        message: 'This instance holds as many waiting requests as it can. Retry shortly.',
      });
      expect(past.headers['retry-after']).toBe('5');

      // The agent withdraws b: its wait ends, and its slot is free again — for organisation two;
      // organisation one is still at its own cap.
      expect(
        (await http().post(`/api/interrupts/${b.id}/cancel`).set('x-api-key', keyTwo).send({}))
          .status,
      ).toBe(200);
      expect((await heldTwo).body).toMatchObject({ id: b.id, status: 'withdrawn' });
      await until(() => waits().size === 2, 'the slot to be given back');
      expect((await hold(a.id, keyOne)).status).toBe(429);
      const c = await openInterrupt(server, keyTwo);
      const heldAgain = hold(c.id, keyTwo);
      await until(() => waits().size === 3, 'the free slot to hold a new wait');

      for (const [id, key] of [
        [a.id, keyOne],
        [c.id, keyTwo],
      ])
        expect(
          (await http().post(`/api/interrupts/${id}/cancel`).set('x-api-key', key).send({})).status,
        ).toBe(200);
      for (const res of [...(await Promise.all(heldOne)), await heldAgain]) {
        expect(res.status).toBe(200);
        expect(res.body.status).toBe('withdrawn');
      }
      expect(waits().size).toBe(0);
    });
  });
});
