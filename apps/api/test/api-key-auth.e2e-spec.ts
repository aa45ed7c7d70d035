import { Controller, Get, Module } from '@nestjs/common';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { generateApiKey } from '@interlock/api-keys';
import { NotificationBus } from '../src/notifications/notification-bus';
import { ApiKeysRepository } from '../src/api-keys/api-keys.repository';
import { CurrentApiKey } from '../src/auth/decorators/current-principal.decorator';
import { MachineRoute } from '../src/auth/decorators/route-access.decorator';
import type { ApiKeyPrincipal } from '../src/auth/principal';
import { createApiKey, setPlan, signUpOwner, SignedUpOwner } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

// Probe machine routes: what a key sees of itself, and one that needs Pro.
@Controller('probe-machine')
class MachineProbeController {
  @Get()
  @MachineRoute()
  whoami(@CurrentApiKey() key: ApiKeyPrincipal) {
    return {
      organisationId: key.organisationId,
      apiKeyId: key.apiKeyId,
      name: key.apiKeyName,
      plan: key.plan,
    };
  }

  @Get('pro')
  @MachineRoute({ plan: 'pro' })
  pro() {
    return { ok: true };
  }
}

@Module({ controllers: [MachineProbeController] })
class MachineProbeModule {}

const EXACT = {
  missing: {
    statusCode: 401,
    error: 'Unauthorized',
    code: 'MISSING_API_KEY',
    message: 'Missing x-api-key header.',
  },
  invalid: {
    statusCode: 401,
    error: 'Unauthorized',
    code: 'INVALID_API_KEY',
    message: 'Invalid API key.',
  },
  expired: {
    statusCode: 401,
    error: 'Unauthorized',
    code: 'API_KEY_EXPIRED',
    message: 'API Key has expired',
  },
};

describe('API key authentication (SPEC §4)', () => {
  let t: TestApp;
  let owner: SignedUpOwner;
  let key: Awaited<ReturnType<typeof createApiKey>>;
  const http = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    t = await startTestApp({ imports: [MachineProbeModule] });
    owner = await signUpOwner(t.app.getHttpServer());
    key = await createApiKey(t.app.getHttpServer(), owner.cookie, { name: 'ci-runner' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('admits a valid key, for its own organisation', async () => {
    const res = await http().get('/probe-machine').set('x-api-key', key.key);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      organisationId: owner.organisationId,
      apiKeyId: key.id,
      name: 'ci-runner',
      plan: 'free',
    });
  });

  it('answers a missing header with 401 MISSING_API_KEY', async () => {
    const res = await http().get('/probe-machine');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject(EXACT.missing);
  });

  it('answers an empty header with 401 MISSING_API_KEY', async () => {
    const res = await http().get('/probe-machine').set('x-api-key', '');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject(EXACT.missing);
  });

  it('never takes the key from Authorization: Bearer', async () => {
    const res = await http().get('/probe-machine').set('authorization', `Bearer ${key.key}`);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject(EXACT.missing);
  });

  it.each([
    ['malformed', 'not-a-key'],
    ['wrong prefix', `xyz_${'A'.repeat(64)}`],
    ['too long', `ilk_${'A'.repeat(65)}`],
  ])('answers a %s key with 401 INVALID_API_KEY', async (_label, value) => {
    const res = await http().get('/probe-machine').set('x-api-key', value);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject(EXACT.invalid);
  });

  it('answers a checksum-broken key with 401 INVALID_API_KEY', async () => {
    const i = 'ilk_'.length + 10;
    const flipped = key.key.slice(0, i) + (key.key[i] === 'a' ? 'b' : 'a') + key.key.slice(i + 1);
    const res = await http().get('/probe-machine').set('x-api-key', flipped);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject(EXACT.invalid);
  });

  it('answers a well-formed but unknown key with 401 INVALID_API_KEY', async () => {
    const res = await http().get('/probe-machine').set('x-api-key', generateApiKey('ilk_'));
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject(EXACT.invalid);
  });

  it('answers an expired key with 401 API_KEY_EXPIRED, and drops it from the list', async () => {
    const short = await createApiKey(t.app.getHttpServer(), owner.cookie, {
      name: 'short-lived',
      expiry: '7d',
    });
    expect((await http().get('/probe-machine').set('x-api-key', short.key)).status).toBe(200);
    // The key is cached now. A change made straight in SQL reaches the cache through the
    // table's trigger and LISTEN/NOTIFY, a few milliseconds later: sync with the instances, as
    // the service itself does after a revoke.
    await t.app
      .get(DataSource)
      .query(`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1`, [
        short.id,
      ]);
    await t.app.get(NotificationBus).sync();
    const res = await http().get('/probe-machine').set('x-api-key', short.key);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject(EXACT.expired);
    const list = await http().get('/api/api-keys').set('cookie', owner.cookie);
    expect(list.body.apiKeys.map((k: { id: string }) => k.id)).not.toContain(short.id);
  });

  it('answers 402 PLAN_REQUIRED on a Pro route for a Free organisation, after the key check', async () => {
    const free = await http().get('/probe-machine/pro').set('x-api-key', key.key);
    expect(free.status).toBe(402);
    expect(free.body).toMatchObject({
      statusCode: 402,
      error: 'Payment Required',
      code: 'PLAN_REQUIRED',
      message: 'The audit log API requires the Pro plan.',
    });
    // An invalid key is refused before the plan is looked at.
    expect((await http().get('/probe-machine/pro').set('x-api-key', 'nope')).status).toBe(401);

    await setPlan(t.app.getHttpServer(), owner.cookie, 'pro');
    const pro = await http().get('/probe-machine/pro').set('x-api-key', key.key);
    expect(pro.status).toBe(200);
    await setPlan(t.app.getHttpServer(), owner.cookie, 'free');
    expect((await http().get('/probe-machine/pro').set('x-api-key', key.key)).status).toBe(402);
  });

  it('reads a key once for a herd of requests presenting it at once (issue 37 §6), and again after a change to it', async () => {
    const bus = t.app.get(NotificationBus);
    const repository = t.app.get(ApiKeysRepository);
    const server = t.app.getHttpServer();
    if (!server.listening) await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    // The real read, 300 ms late: the herd's requests all arrive while the first is under way.
    const findByHash = repository.findByHash.bind(repository);
    const spy = jest
      .spyOn(repository, 'findByHash')
      .mockImplementation(async (db, hash) =>
        new Promise((r) => setTimeout(r, 300)).then(() => findByHash(db, hash)),
      );
    try {
      // Not cached yet: 40 requests at once. While the bus is unhealthy nothing is cached, and a
      // request later than 1.5 s reads for itself (on a loaded machine the bus's proof may lapse
      // for a moment): then the herd is sent again.
      let reads = 0;
      let herd = await createApiKey(server, owner.cookie, { name: 'herd' });
      for (let attempt = 1; ; attempt++) {
        await bus.sync();
        spy.mockClear();
        const statuses = await Promise.all(
          Array.from({ length: 40 }, () =>
            fetch(`${base}/probe-machine`, { headers: { 'x-api-key': herd.key } }).then(
              (r) => r.status,
            ),
          ),
        );
        expect(statuses).toEqual(Array(40).fill(200));
        reads = spy.mock.calls.length;
        if (bus.healthy || attempt === 5) break;
        herd = await createApiKey(server, owner.cookie, { name: `herd ${attempt}` });
      }
      expect(reads).toBe(1);
      // A change announced while a lookup is shared is never answered from it: revoked, refused.
      await http().delete(`/api/api-keys/${herd.id}`).set('cookie', owner.cookie).expect(204);
      const after = await fetch(`${base}/probe-machine`, { headers: { 'x-api-key': herd.key } });
      expect(after.status).toBe(401);
    } finally {
      spy.mockRestore();
    }
  });

  it('refuses a malformed key without touching the database', async () => {
    const ds = t.app.get(DataSource);
    const spy = jest.spyOn(ds, 'query');
    // The instance's background jobs (heartbeat, the key budget's sync, the outboxes' polls) run
    // statements of their own at any moment: what a request runs to verify a key is the lookup on
    // api_keys, which no job reads (lastUsedAt's job only writes it).
    const keyLookups = () =>
      spy.mock.calls
        .map(([sql]) => String(sql))
        .filter((sql) => /\bapi_keys\b/.test(sql) && !/SET last_used_at/.test(sql));
    try {
      // The lookup is seen: a well-formed key that matches none is looked up, and refused.
      const unknown = generateApiKey('ilk_');
      expect((await http().get('/probe-machine').set('x-api-key', unknown)).status).toBe(401);
      expect(keyLookups().length).toBeGreaterThan(0);
      spy.mockClear();
      const flipped = key.key.slice(0, -1) + (key.key.endsWith('a') ? 'b' : 'a');
      expect((await http().get('/probe-machine').set('x-api-key', flipped)).status).toBe(401);
      expect((await http().get('/probe-machine').set('x-api-key', 'ilk_short')).status).toBe(401);
      expect(keyLookups()).toEqual([]);
    } finally {
      spy.mockRestore();
    }
  });
});
