// webhooks.verify / unwrap against signatures made by the reference implementation of Standard
// Webhooks (`standardwebhooks` from npm, pinned in the root package.json) and by hand.
import { createHmac, randomBytes } from 'node:crypto';
import { Webhook as Reference } from 'standardwebhooks';
import { Interlock } from './client';
import { InterlockError } from './errors';
import { resumeSigningSecret, Webhooks, WebhookVerificationError } from './webhooks';

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const webhooks = new Webhooks({ secret });
const event = {
  id: '6f2c1e8a-3b4d-4c5e-9f60-718293a4b5c6',
  type: 'interrupt.answered',
  createdAt: '2026-11-21T10:00:00.123Z',
  organisationId: '0b6f6f3e-2a43-4a39-9a0e-5b1c1d0e0f10',
  data: { id: 'a1', title: 'Refund — 40 €', status: 'answered', decisions: [] },
};
const body = JSON.stringify(event);

/** Headers as the reference library signs them, `at` (default now). */
function signed(
  payload = body,
  key = secret,
  at = new Date(),
  id = event.id,
): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Reference(key).sign(id, at, payload),
  };
}

async function failure(call: Promise<unknown>): Promise<WebhookVerificationError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof WebhookVerificationError))
    throw new Error(`expected a WebhookVerificationError, got ${String(error)}`);
  return error;
}

describe('webhooks.verify', () => {
  it('accepts the reference implementation’s signature, and the published test vector', async () => {
    await expect(webhooks.verify(body, signed())).resolves.toBeUndefined();
    // The example of the Standard Webhooks specification and its libraries' tests.
    const vector = {
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    };
    const at = new Date(1614265330 * 1000);
    await expect(
      new Webhooks().verify(
        '{"test": 2432232314}',
        vector,
        'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        { now: at },
      ),
    ).resolves.toBeUndefined();
    expect(
      new Reference('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw').sign(
        vector['webhook-id'],
        at,
        '{"test": 2432232314}',
      ),
    ).toBe(vector['webhook-signature']);
  });

  it('takes the body as bytes, headers as Headers or Node’s record (any case, arrays)', async () => {
    const headers = signed();
    await webhooks.verify(new TextEncoder().encode(body), headers);
    await webhooks.verify(body, new Headers(headers));
    await webhooks.verify(body, {
      'Webhook-Id': headers['webhook-id'],
      'WEBHOOK-TIMESTAMP': [headers['webhook-timestamp']],
      'webhook-signature': headers['webhook-signature'],
      host: undefined,
    });
    // The secret without its prefix works too (as in the reference library).
    await webhooks.verify(body, headers, secret.slice('whsec_'.length));
  });

  it('accepts any one matching signature: after a rotation both secrets sign', async () => {
    const old = `whsec_${randomBytes(32).toString('base64')}`;
    const at = new Date();
    const both = {
      ...signed(body, secret, at),
      'webhook-signature': `${signed(body, secret, at)['webhook-signature']} ${signed(body, old, at)['webhook-signature']}`,
    };
    await webhooks.verify(body, both);
    await webhooks.verify(body, both, old);
    const v2First = { ...both, 'webhook-signature': `v2,abc ${both['webhook-signature']}` };
    await webhooks.verify(body, v2First);
  });

  it.each([
    ['webhook-id', 'Missing required header: webhook-id.'],
    ['webhook-timestamp', 'Missing required header: webhook-timestamp.'],
    ['webhook-signature', 'Missing required header: webhook-signature.'],
  ])('refuses a request without %s', async (name, message) => {
    const headers: Record<string, string> = signed();
    delete headers[name];
    const error = await failure(webhooks.verify(body, headers));
    expect([error.code, error.message]).toEqual(['missing_header', message]);
    expect(error).toBeInstanceOf(InterlockError);
  });

  it('refuses a changed body, another secret, a forged or malformed signature', async () => {
    const headers = signed();
    for (const [payload, hs, key] of [
      [body.replace('Refund', 'Refunx'), headers, secret],
      [`${body} `, headers, secret],
      [body, headers, `whsec_${randomBytes(32).toString('base64')}`],
      [body, { ...headers, 'webhook-id': 'another' }, secret],
      [body, { ...headers, 'webhook-signature': 'v1,not base64!' }, secret],
      [
        body,
        { ...headers, 'webhook-signature': headers['webhook-signature'].replace('v1,', 'v2,') },
        secret,
      ],
      [body, { ...headers, 'webhook-signature': headers['webhook-signature'].slice(3) }, secret],
      [
        body,
        { ...headers, 'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')}` },
        secret,
      ],
    ] as const) {
      const error = await failure(webhooks.verify(payload, hs, key));
      expect([error.code, error.message]).toEqual([
        'invalid_signature',
        'No webhook-signature matches the payload.',
      ]);
    }
  });

  it('holds the timestamp to 5 minutes either way (tolerance configurable)', async () => {
    const now = new Date();
    const at = (seconds: number) => new Date(now.getTime() + seconds * 1000);
    await webhooks.verify(body, signed(body, secret, at(-299)));
    await webhooks.verify(body, signed(body, secret, at(299)));
    const old = await failure(webhooks.verify(body, signed(body, secret, at(-301))));
    expect([old.code, old.message]).toEqual([
      'timestamp_too_old',
      'Webhook timestamp is too old (more than 300 seconds before now).',
    ]);
    const early = await failure(webhooks.verify(body, signed(body, secret, at(301))));
    expect([early.code, early.message]).toEqual([
      'timestamp_too_new',
      'Webhook timestamp is too new (more than 300 seconds after now).',
    ]);
    await webhooks.verify(body, signed(body, secret, at(-3000)), secret, { tolerance: 3600 });
    const strict = await failure(
      webhooks.verify(body, signed(body, secret, at(-20)), secret, { tolerance: 10 }),
    );
    expect(strict.message).toBe('Webhook timestamp is too old (more than 10 seconds before now).');
    // A timestamp inside the signature is what counts: moving the header breaks the signature.
    const moved = {
      ...signed(body, secret, at(-400)),
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    };
    expect((await failure(webhooks.verify(body, moved))).code).toBe('invalid_signature');
    for (const bad of ['soon', '1.5', '-1', '']) {
      const error = await failure(webhooks.verify(body, { ...signed(), 'webhook-timestamp': bad }));
      expect(error.code).toBe(bad === '' ? 'missing_header' : 'invalid_timestamp');
      if (bad !== '')
        expect(error.message).toBe('Invalid webhook-timestamp header: expected Unix seconds.');
    }
  });

  it('needs a secret: a missing or malformed one is a programming error, not a bad request', async () => {
    const none = new Webhooks({ secret: undefined });
    const previous = process.env.INTERLOCK_WEBHOOK_SECRET;
    delete process.env.INTERLOCK_WEBHOOK_SECRET;
    try {
      const error = await new Webhooks().verify(body, signed()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InterlockError);
      expect(error).not.toBeInstanceOf(WebhookVerificationError);
      expect((error as Error).message).toBe(
        'No webhook secret: pass one or set INTERLOCK_WEBHOOK_SECRET (the whsec_… shown when the webhook was created).',
      );
      await expect(none.verify(body, signed(), 'whsec_!!!')).rejects.toThrow(
        'Invalid webhook secret: expected whsec_ followed by base64.',
      );
      process.env.INTERLOCK_WEBHOOK_SECRET = secret;
      await new Webhooks().verify(body, signed());
    } finally {
      if (previous === undefined) delete process.env.INTERLOCK_WEBHOOK_SECRET;
      else process.env.INTERLOCK_WEBHOOK_SECRET = previous;
    }
  });

  it('agrees with a plain HMAC-SHA-256 of id.timestamp.body under the secret’s bytes', async () => {
    const at = Math.floor(Date.now() / 1000);
    const mac = createHmac('sha256', Buffer.from(secret.slice(6), 'base64'))
      .update(`${event.id}.${at}.${body}`)
      .digest('base64');
    await webhooks.verify(body, {
      'webhook-id': event.id,
      'webhook-timestamp': String(at),
      'webhook-signature': `v1,${mac}`,
    });
  });
});

describe('webhooks.unwrap', () => {
  it('verifies, then returns the typed event', async () => {
    const unwrapped = await webhooks.unwrap(body, signed());
    expect(unwrapped).toEqual(event);
    if (unwrapped.type === 'interrupt.answered') {
      // Narrowed by `type`: data is the interrupt.
      expect(unwrapped.data.status).toBe('answered');
    }
  });

  it('refuses before parsing when the signature is wrong, and a signed body that is not an event', async () => {
    const bad = await failure(
      webhooks.unwrap(body, signed(body, `whsec_${randomBytes(32).toString('base64')}`)),
    );
    expect(bad.code).toBe('invalid_signature');
    for (const payload of ['not json', '[1,2]', '{"id":"x"}', 'null']) {
      const error = await failure(webhooks.unwrap(payload, signed(payload)));
      expect([error.code, error.message]).toEqual([
        'invalid_payload',
        'Webhook payload is not an Interlock event.',
      ]);
    }
  });

  it('is on the client, with the client’s webhookSecret by default', async () => {
    const client = new Interlock({
      apiKey: 'ilk_test',
      baseURL: 'http://interlock.test',
      webhookSecret: secret,
    });
    expect(await client.webhooks.unwrap(body, signed())).toEqual(event);
    expect(await client.withOptions({ timeout: 1000 }).webhooks.unwrap(body, signed())).toEqual(
      event,
    );
  });
});

describe('resumeSigningSecret', () => {
  const apiKey = 'il_live_4f2a9c0e1b7d4e3f8a6b5c4d3e2f1a0b';

  it('is whsec_ + base64 of HMAC-SHA-256 under the key of the fixed text (SPEC §8e)', async () => {
    const expected = createHmac('sha256', apiKey)
      .update('interlock resumeUrl signing secret v1')
      .digest('base64');
    await expect(resumeSigningSecret(apiKey)).resolves.toBe(`whsec_${expected}`);
    await expect(resumeSigningSecret(`${apiKey}x`)).resolves.not.toBe(`whsec_${expected}`);
  });

  it('verifies a resume POST signed under it, and refuses one signed under another key’s', async () => {
    const mine = await resumeSigningSecret(apiKey);
    await expect(webhooks.unwrap(body, signed(body, mine), mine)).resolves.toEqual(event);
    const theirs = await resumeSigningSecret('il_live_someone-else');
    const error = await failure(webhooks.verify(body, signed(body, theirs), mine));
    expect(error.code).toBe('invalid_signature');
  });

  it('needs a key', async () => {
    await expect(resumeSigningSecret('')).rejects.toThrow(InterlockError);
  });
});
