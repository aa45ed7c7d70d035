import request from 'supertest';
import { Client } from 'pg';
import { createApiKey, setPlan, signUpOwner } from './support/factories';
import { createMigratedTestDatabase } from './support/migrated-database';
import { adminDatabaseUrl, TestDatabase } from './support/test-database';
import { startTestApp, TestApp } from './support/test-app';
import { TcpProxy } from './support/tcp-proxy';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Issue 10, defect 3: while Postgres stopped under load, 2 of 3,401 refused creates answered
// 500 (`QueryRunnerProviderAlreadyReleasedError`: the connection of a transaction lost midway).
// Every "database unavailable" failure answers 503 with Retry-After.
describe('Postgres stopping under concurrent creates', () => {
  let t: TestApp;
  let proxy: TcpProxy;
  let db: TestDatabase;
  let admin: Client;

  beforeAll(async () => {
    db = await createMigratedTestDatabase();
    const target = new URL(adminDatabaseUrl());
    proxy = new TcpProxy(target.hostname, Number(target.port));
    await proxy.start();
    const viaProxy = new URL(db.url);
    viaProxy.port = String(proxy.port);
    t = await startTestApp({
      databaseUrl: viaProxy.toString(),
      // The mixed load starts sessions for as long as it runs: the plan's active-session quota
      // (SPEC §8) is not what this test is about, and its 402 would count as a wrong answer.
      // The production wait for a connection: what an outage answers within is part of the test.
      env: { PLAN_PRO_ACTIVE_SESSIONS: '1000000', DATABASE_CONNECT_TIMEOUT: '5s' },
    });
    admin = new Client({ connectionString: adminDatabaseUrl() });
    await admin.connect();
  });
  afterAll(async () => {
    proxy.restore();
    await admin.end();
    await t.close();
    await db.drop();
    await proxy.stop();
  });

  /** Postgres stops, as the service sees it: new connections refused, open ones terminated. */
  async function stopPostgres(): Promise<void> {
    proxy.refuseNew();
    await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
      [db.name],
    );
  }

  it('20 concurrent clients (mostly creates) through three stops: never a 500, every refusal a 503 with Retry-After', async () => {
    const server = t.app.getHttpServer();
    const owner = await signUpOwner(server);
    await setPlan(server, owner.cookie, 'pro');
    const { key } = await createApiKey(server, owner.cookie);
    const http = () => request(server);

    const session = await http()
      .post('/api/sessions')
      .set('x-api-key', key)
      .send({ name: 'outage' })
      .expect(201);
    // Mostly creates, as the outside run did, with the other writes and reads interleaved.
    const operations = [
      (n: number) =>
        http()
          .post('/api/interrupts')
          .set('x-api-key', key)
          .send({ title: `outage ${n}`, actionRequests: [{ name: 'deploy', args: { n } }] }),
      (n: number) =>
        http()
          .post('/api/interrupts')
          .set('x-api-key', key)
          .set('idempotency-key', `outage-${n}`)
          .send({ title: `outage ${n}`, actionRequests: [{ name: 'deploy' }] }),
      (n: number) =>
        http()
          .post('/api/sessions')
          .set('x-api-key', key)
          .send({ name: `outage ${n}` }),
      (n: number) =>
        http()
          .post(`/api/sessions/${session.body.id}/messages`)
          .set('x-api-key', key)
          .send({ messages: [{ role: 'agent', content: `m ${n}` }] }),
      () => http().get('/api/interrupts?limit=5').set('x-api-key', key),
      (n: number) =>
        http()
          .post('/api/teams')
          .set('cookie', owner.cookie)
          .send({ name: `team ${n}` }),
    ];

    const statuses = new Map<number, number>();
    const wrong: string[] = [];
    let running = true;
    let n = 0;
    const client = async (c: number) => {
      while (running) {
        const i = n++;
        const res = await operations[c % 4 === 0 ? i % operations.length : 0](i);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status === 503 && res.headers['retry-after'] === undefined)
          wrong.push('503 without Retry-After');
        if (![200, 201, 503].includes(res.status))
          wrong.push(`${res.status} ${JSON.stringify(res.body)}`);
      }
    };
    const clients = Array.from({ length: 20 }, (_, c) => client(c));
    for (let cycle = 0; cycle < 3; cycle++) {
      await sleep(400);
      await stopPostgres();
      await sleep(700);
      proxy.restore();
    }
    await sleep(1_500);
    running = false;
    await Promise.all(clients);

    const unexpected = t.logs
      .filter((l) => l.msg === 'unhandled exception')
      .map((l) => (l.err as { message?: string }).message);
    expect({ wrong, unexpected }).toEqual({ wrong: [], unexpected: [] });
    expect(statuses.get(500)).toBeUndefined();
    expect(statuses.get(503)).toBeGreaterThan(0);
    expect(statuses.get(201)).toBeGreaterThan(0);
    // The service is back: a create after the outage succeeds.
    await http()
      .post('/api/interrupts')
      .set('x-api-key', key)
      .send({ title: 'after', actionRequests: [{ name: 'a' }] })
      .expect(201);
  });

  // Issue 34 item 14, the outside run again: Postgres stopped 10 s under mixed load. Every answer
  // is a success or the JSON 503 with Retry-After, and no acknowledged write is lost.
  it('Postgres stopped 10 s under 20 clients: only successes and JSON 503s, 0 acknowledged creates lost', async () => {
    const server = t.app.getHttpServer();
    const owner = await signUpOwner(server);
    const { key } = await createApiKey(server, owner.cookie);
    const http = () => request(server);
    const acknowledged: string[] = [];
    const wrong: string[] = [];
    let answers = 0;
    let running = true;
    let n = 0;
    const client = async () => {
      while (running) {
        const i = n++;
        const res =
          i % 5 === 4
            ? await http().get('/api/interrupts?limit=5').set('x-api-key', key)
            : await http()
                .post('/api/interrupts')
                .set('x-api-key', key)
                .send({ title: `long outage ${i}`, actionRequests: [{ name: 'deploy' }] });
        answers++;
        if (res.status === 201) acknowledged.push(res.body.id as string);
        else if (res.status === 503) {
          if (res.headers['retry-after'] === undefined || res.body.code !== 'SERVICE_UNAVAILABLE')
            wrong.push(`503 ${JSON.stringify(res.body)}`);
          await sleep(50);
        } else if (res.status !== 200) wrong.push(`${res.status} ${JSON.stringify(res.body)}`);
      }
    };
    const clients = Array.from({ length: 20 }, client);
    await sleep(1_000);
    await stopPostgres();
    await sleep(10_000);
    proxy.restore();
    await sleep(3_000);
    running = false;
    await Promise.all(clients);

    expect(wrong).toEqual([]);
    expect(acknowledged.length).toBeGreaterThan(0);
    const check = new Client({ connectionString: db.url });
    await check.connect();
    try {
      const { rows } = await check.query(
        `SELECT count(*)::int AS n FROM interrupts WHERE id = ANY($1::uuid[])`,
        [acknowledged],
      );
      expect(rows[0].n).toBe(acknowledged.length);
    } finally {
      await check.end();
    }
    console.log(
      `outage of 10 s: ${answers} answers, ${acknowledged.length} creates acknowledged, all stored`,
    );
  }, 60_000);
});
