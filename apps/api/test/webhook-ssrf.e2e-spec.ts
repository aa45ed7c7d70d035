import request from 'supertest';
import {
  createApiKey,
  openInterrupt,
  sessionCookieOf,
  signUpOwner,
  SignedUpOwner,
} from './support/factories';
import { startTestApp, TestApp } from './support/test-app';
import { WebhookReceiver } from './support/webhook-receiver';
import { WebhookResolver } from '../src/webhooks/webhook-resolver';
import type { ResolvedAddress } from '../src/webhooks/webhook-url.util';

const PRODUCTION = {
  NODE_ENV: 'production',
  API_KEY_PEPPER: 'production-pepper-0123456789-0123456789-0123456789',
  WEBHOOK_POLL_INTERVAL: '50ms',
  WEBHOOK_RETRY_SCHEDULE: '10m',
};
const FORBIDDEN = 'url must not reach a private, loopback, link-local or metadata address.';

/**
 * Server-side request forgery (SPEC §8a): in production a webhook may not reach private,
 * loopback, link-local or metadata addresses — refused at creation and again at every delivery.
 * IP literals and `localhost` go through the real checks and the system resolver. A host name
 * that resolves to a private address needs a DNS answer no resolver here gives: for those cases
 * the test stands in for DNS (WebhookResolver.lookup), and says so.
 */
describe('webhook SSRF protection in production', () => {
  let t: TestApp;
  let owner: SignedUpOwner;
  let key: string;
  const http = () => request(t.app.getHttpServer());
  let dns: Record<string, string[]>;

  beforeAll(async () => {
    t = await startTestApp({ env: PRODUCTION });
    owner = await signUpOwner(t.app.getHttpServer());
    key = (await createApiKey(t.app.getHttpServer(), owner.cookie)).key;
    const resolver = t.app.get(WebhookResolver);
    const system = resolver.lookup.bind(resolver);
    // The stand-in answers for *.example.test only; every other name goes to the system resolver.
    jest
      .spyOn(resolver, 'lookup')
      .mockImplementation(async (host: string): Promise<ResolvedAddress[]> => {
        if (!host.endsWith('.example.test')) return system(host);
        const answer = dns[host];
        if (answer === undefined) throw new Error(`ENOTFOUND ${host}`);
        return answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
      });
  });
  afterAll(async () => {
    await t.close();
  });

  it.each([
    ['https://127.0.0.1/hooks', FORBIDDEN],
    ['https://127.8.9.10:8443/hooks', FORBIDDEN],
    ['https://10.0.0.5/hooks', FORBIDDEN],
    ['https://10.255.1.2/hooks', FORBIDDEN],
    ['https://169.254.169.254/latest/meta-data/', FORBIDDEN],
    ['https://[::1]/hooks', FORBIDDEN],
    ['https://[::ffff:127.0.0.1]/hooks', FORBIDDEN],
    ['https://[fd00:ec2::254]/latest/meta-data/', FORBIDDEN],
    // Issue 34, item 11: loopback and metadata behind IPv4-compatible, IPv4-translated and local-use NAT64 forms.
    ['https://[::127.0.0.1]/hooks', FORBIDDEN],
    ['https://[::a9fe:a9fe]/latest/meta-data/', FORBIDDEN],
    ['https://[::ffff:0:127.0.0.1]/hooks', FORBIDDEN],
    ['https://[::ffff:0:a9fe:a9fe]/latest/meta-data/', FORBIDDEN],
    ['https://[64:ff9b:1::a9fe:a9fe]/latest/meta-data/', FORBIDDEN],
    ['https://192.168.1.10/hooks', FORBIDDEN],
    ['https://2130706433/hooks', FORBIDDEN],
    ['https://localhost/hooks', FORBIDDEN],
    ['http://hooks.example.com/x', 'url must use https.'],
    ['http://127.0.0.1/x', 'url must use https.'],
  ])('refuses %s at creation', async (url, message) => {
    const res = await http().post('/api/webhooks').set('cookie', owner.cookie).send({ url });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', message });
  });

  it('refuses a host name that resolves to a private or metadata address (DNS stand-in), and one that does not resolve', async () => {
    dns = {
      'internal.example.test': ['10.0.0.8'],
      'meta.example.test': ['169.254.169.254'],
      'mixed.example.test': ['93.184.216.34', '192.168.0.4'],
      'v6.example.test': ['::1'],
      'public.example.test': ['93.184.216.34'],
    };
    for (const host of ['internal', 'meta', 'mixed', 'v6']) {
      const res = await http()
        .post('/api/webhooks')
        .set('cookie', owner.cookie)
        .send({ url: `https://${host}.example.test/hooks` });
      expect([host, res.status, res.body.message]).toEqual([host, 400, FORBIDDEN]);
    }
    const missing = await http()
      .post('/api/webhooks')
      .set('cookie', owner.cookie)
      .send({ url: 'https://missing.example.test/hooks' });
    expect(missing.body.message).toBe('url: its host name could not be resolved.');
    const ok = await http()
      .post('/api/webhooks')
      .set('cookie', owner.cookie)
      .send({ url: 'https://public.example.test/hooks' });
    expect(ok.status).toBe(201);
    const moved = await http()
      .patch(`/api/webhooks/${ok.body.id}`)
      .set('cookie', owner.cookie)
      .send({ url: 'https://internal.example.test/' });
    expect(moved.status).toBe(400);
    expect(moved.body.message).toBe(FORBIDDEN);
    await http().delete(`/api/webhooks/${ok.body.id}`).set('cookie', owner.cookie);
  });

  it('checks again at delivery: a name that now resolves to loopback is not connected to (DNS stand-in)', async () => {
    const target = new WebhookReceiver();
    await target.start();
    try {
      dns = { 'rebind.example.test': ['93.184.216.34'] };
      const hook = await http()
        .post('/api/webhooks')
        .set('cookie', owner.cookie)
        .send({
          url: `https://rebind.example.test:${target.port}/hooks`,
          eventTypes: ['interrupt.created'],
        });
      expect(hook.status).toBe(201);
      dns = { 'rebind.example.test': ['127.0.0.1'] };
      await openInterrupt(t.app.getHttpServer(), key, { title: 'Rebound' });
      const delivery = await attempted(hook.body.id);
      expect(delivery).toMatchObject({
        status: 'pending',
        responseStatus: null,
        error: `Not sent: ${FORBIDDEN}`,
      });
      expect(target.connections).toBe(0);
    } finally {
      await target.stop();
    }
  });

  /** The webhook's first delivery once it has been attempted. */
  async function attempted(webhookId: string): Promise<Record<string, unknown>> {
    for (let i = 0; i < 200; i++) {
      const res = await http()
        .get(`/api/webhooks/${webhookId}/deliveries`)
        .set('cookie', owner.cookie);
      const [delivery] = res.body.deliveries;
      if (delivery !== undefined && delivery.attemptCount > 0 && delivery.status !== 'delivering')
        return delivery;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('no attempt was made');
  }
});

describe('webhook SSRF protection: URLs stored outside production are checked at delivery in production', () => {
  it('refuses 127.0.0.1, [::1], 10.x and 169.254.169.254 at delivery without connecting', async () => {
    const target = new WebhookReceiver();
    await target.start();
    // Outside production https to any address is allowed: store the webhooks there.
    const dev = await startTestApp({
      env: { WEBHOOK_POLL_INTERVAL: '50ms', API_KEY_PEPPER: PRODUCTION.API_KEY_PEPPER },
    });
    let prod: TestApp | undefined;
    try {
      const owner = await signUpOwner(dev.app.getHttpServer());
      const key = (await createApiKey(dev.app.getHttpServer(), owner.cookie)).key;
      const urls = [
        `https://127.0.0.1:${target.port}/hooks`,
        `https://[::1]:${target.port}/hooks`,
        `https://10.11.12.13:${target.port}/hooks`,
        `https://169.254.169.254:${target.port}/latest/meta-data/`,
        `http://127.0.0.1:${target.port}/hooks`,
      ];
      const ids: string[] = [];
      for (const url of urls) {
        const res = await request(dev.app.getHttpServer())
          .post('/api/webhooks')
          .set('cookie', owner.cookie)
          .send({ url, eventTypes: ['interrupt.created'] });
        expect(res.status).toBe(201);
        ids.push(res.body.id);
      }
      await dev.app.close();

      prod = await startTestApp({ env: PRODUCTION, databaseUrl: dev.database.url });
      const server = prod.app.getHttpServer();
      // Production reads its session from `__Host-session` only: the owner signs in there.
      const signIn = await request(server)
        .post('/api/auth/sign-in')
        .send({ email: owner.email, password: owner.password });
      expect(signIn.status).toBe(200);
      const cookie = sessionCookieOf(signIn);
      expect(cookie).toMatch(/^__Host-session=/);
      await openInterrupt(server, key, { title: 'Into the metadata service' });
      const errors: unknown[] = [];
      for (const id of ids) {
        for (let i = 0; i < 200; i++) {
          const res = await request(server)
            .get(`/api/webhooks/${id}/deliveries`)
            .set('cookie', cookie);
          expect(res.status).toBe(200);
          const [delivery] = res.body.deliveries;
          if (delivery?.attemptCount > 0 && delivery.status !== 'delivering') {
            errors.push(delivery.error);
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
      expect(errors).toEqual([
        `Not sent: ${FORBIDDEN}`,
        `Not sent: ${FORBIDDEN}`,
        `Not sent: ${FORBIDDEN}`,
        `Not sent: ${FORBIDDEN}`,
        'Not sent: url must use https.',
      ]);
      expect(target.connections).toBe(0);
    } finally {
      await prod?.app.close();
      await prod?.database.drop();
      await dev.database.drop();
      await target.stop();
    }
  });
});
