// webhooks.unwrap against deliveries the live service signed and sent to a receiver on loopback
// (tools/scripts/with-service.mjs), cross-checked with the reference implementation.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { Webhook as Reference } from 'standardwebhooks';
import { Interlock, WebhookVerificationError, type WebhookEvent } from '../src';
import { decide, live, raw } from './support/live-service';

interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
}

const client = new Interlock({ apiKey: live.apiKey, baseURL: live.baseURL });

describe('webhooks from the live service', () => {
  let server: Server;
  const deliveries: Delivery[] = [];
  let webhook: { id: string; secret: string };

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        deliveries.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const created = await raw('POST', '/api/webhooks', {
      headers: { cookie: live.memberCookie },
      body: {
        url: `http://127.0.0.1:${port}/interlock`,
        eventTypes: ['interrupt.created', 'interrupt.decided', 'interrupt.answered'],
      },
    });
    expect(created.status).toBe(201);
    webhook = created.body as { id: string; secret: string };
  });
  afterAll(async () => {
    await raw('DELETE', `/api/webhooks/${webhook.id}`, { headers: { cookie: live.memberCookie } });
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('deciding the last action: interrupt.decided then interrupt.answered, unwrapped by the SDK', async () => {
    const interrupt = await client.interrupts.create({
      title: 'Ship the webhook SDK?',
      actionRequests: [{ name: 'ship' }, { name: 'announce' }],
    });
    await decide(interrupt.id, 'ship', 'approve');
    await decide(interrupt.id, 'announce', 'respond', { message: 'Post it on Friday.' });

    const mine = async (): Promise<{ delivery: Delivery; event: WebhookEvent }[]> => {
      const all = [];
      for (const delivery of deliveries) {
        const event = await client.webhooks.unwrap(delivery.body, delivery.headers, webhook.secret);
        if ((event.data as { id?: string }).id === interrupt.id) all.push({ delivery, event });
      }
      return all;
    };
    for (let i = 0; i < 300 && (await mine()).length < 4; i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const received = await mine();
    expect(received.map((r) => r.event.type)).toEqual([
      'interrupt.created',
      'interrupt.decided',
      'interrupt.decided',
      'interrupt.answered',
    ]);

    const answered = received[3].event;
    expect(answered.type).toBe('interrupt.answered');
    if (answered.type === 'interrupt.answered') {
      expect(answered.data).toEqual(
        JSON.parse(JSON.stringify(await client.interrupts.get(interrupt.id))),
      );
      expect(answered.data.decisions.map((d) => d.decision)).toEqual(['approve', 'respond']);
    }
    for (const { delivery, event } of received) {
      expect(delivery.headers['webhook-id']).toBe(event.id);
      // The reference implementation agrees.
      expect(
        new Reference(webhook.secret).verify(
          delivery.body,
          delivery.headers as Record<string, string>,
        ),
      ).toEqual(event);
    }

    const [{ delivery }] = received;
    const tampered = await client.webhooks
      .unwrap(delivery.body.replace('Ship', 'Sink'), delivery.headers, webhook.secret)
      .catch((e: unknown) => e);
    expect(tampered).toBeInstanceOf(WebhookVerificationError);
    expect((tampered as WebhookVerificationError).message).toBe(
      'No webhook-signature matches the payload.',
    );
  });
});
