// Verifying the webhooks Interlock sends (Standard Webhooks): `webhook-id`, `webhook-timestamp`
// and `webhook-signature` = space-separated `v1,<base64 HMAC-SHA-256 of "id.timestamp.body">`
// under the secret's bytes (`whsec_` + base64). Web Crypto does the HMAC and compares in constant
// time, so this runs wherever the SDK runs (Node ≥ 18, Deno, Bun, edge workers).
import { InterlockError } from './errors';
import { readEnv } from './runtime';
import { subtle } from './web-crypto';
import type { WebhookEvent } from './types';

/** Seconds a webhook's timestamp may be away from now (either way): 5 minutes. */
export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;
const SECRET_PREFIX = 'whsec_';

export type WebhookVerificationErrorCode =
  | 'missing_header'
  | 'invalid_timestamp'
  | 'timestamp_too_old'
  | 'timestamp_too_new'
  | 'invalid_signature'
  | 'invalid_payload';

/**
 * A webhook that did not verify: answer it 400 and do not act on it. `code` says why; the
 * messages are exact (the Python SDK raises the same ones).
 */
export class WebhookVerificationError extends InterlockError {
  readonly code: WebhookVerificationErrorCode;

  constructor(code: WebhookVerificationErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

/** Request headers as fetch (`Headers`), Node (`req.headers`) or a plain object give them. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface WebhookVerifyOptions {
  /** Seconds the timestamp may be away from now. Default 300. */
  tolerance?: number;
  /** "Now", for tests. */
  now?: Date;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  let value: string | string[] | null | undefined;
  if (typeof (headers as Headers).get === 'function') value = (headers as Headers).get(name);
  else {
    const record = headers as Record<string, string | string[] | undefined>;
    const key = Object.keys(record).find((k) => k.toLowerCase() === name);
    value = key === undefined ? undefined : record[key];
  }
  if (Array.isArray(value)) value = value.join(' ');
  return value === null || value === undefined || value === '' ? undefined : value;
}

function decodeBase64(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return undefined;
  const binary = atob(text);
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

function secretBytes(secret: string | undefined): Uint8Array {
  if (secret === undefined || secret === '') {
    throw new InterlockError(
      'No webhook secret: pass one or set INTERLOCK_WEBHOOK_SECRET (the whsec_… shown when the webhook was created).',
    );
  }
  const bytes = decodeBase64(
    secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret,
  );
  if (bytes === undefined || bytes.length === 0)
    throw new InterlockError('Invalid webhook secret: expected whsec_ followed by base64.');
  return bytes;
}

/** What a resumeUrl's signing secret is derived from, besides the key. */
const RESUME_SECRET_CONTEXT = 'interlock resumeUrl signing secret v1';

/**
 * The secret an interrupt's `resumeUrl` POST is signed with: `whsec_` + base64 of HMAC-SHA-256,
 * under the API key that opened the interrupt, of a fixed text. The agent already holds its key,
 * so no secret is sent or shown anywhere: pass the result to `webhooks.verify` / `unwrap`.
 */
export async function resumeSigningSecret(apiKey: string): Promise<string> {
  if (apiKey === '') throw new InterlockError('resumeSigningSecret needs the API key.');
  const encoder = new TextEncoder();
  const crypto = await subtle();
  const key = await crypto.importKey(
    'raw',
    encoder.encode(apiKey),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = new Uint8Array(await crypto.sign('HMAC', key, encoder.encode(RESUME_SECRET_CONTEXT)));
  return `${SECRET_PREFIX}${btoa(String.fromCharCode(...mac))}`;
}

/**
 * Verifies webhooks from Interlock: `verify` checks the signature and the timestamp, `unwrap`
 * does that and returns the parsed event. Give the raw body, exactly as received (not re-encoded
 * JSON: a single changed byte fails).
 */
export class Webhooks {
  private readonly secret: string | undefined;

  /** `secret` defaults to `INTERLOCK_WEBHOOK_SECRET`. */
  constructor(options: { secret?: string } = {}) {
    this.secret = options.secret ?? readEnv('INTERLOCK_WEBHOOK_SECRET');
  }

  /**
   * Resolves when `payload` carries a valid signature under `secret` (default: the client's)
   * made within `tolerance` seconds of now; rejects with a WebhookVerificationError otherwise.
   * Any of the signatures may match (after a rotation Interlock signs with both secrets).
   */
  async verify(
    payload: string | Uint8Array,
    headers: WebhookHeaders,
    secret: string | undefined = this.secret,
    options: WebhookVerifyOptions = {},
  ): Promise<void> {
    const key = secretBytes(secret);
    const id = header(headers, 'webhook-id');
    const timestamp = header(headers, 'webhook-timestamp');
    const signatures = header(headers, 'webhook-signature');
    for (const [name, value] of [
      ['webhook-id', id],
      ['webhook-timestamp', timestamp],
      ['webhook-signature', signatures],
    ] as const) {
      if (value === undefined)
        throw new WebhookVerificationError('missing_header', `Missing required header: ${name}.`);
    }
    if (!/^\d{1,15}$/.test(timestamp as string)) {
      throw new WebhookVerificationError(
        'invalid_timestamp',
        'Invalid webhook-timestamp header: expected Unix seconds.',
      );
    }
    const tolerance = options.tolerance ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS;
    const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
    const sent = Number(timestamp);
    if (now - sent > tolerance) {
      throw new WebhookVerificationError(
        'timestamp_too_old',
        `Webhook timestamp is too old (more than ${tolerance} seconds before now).`,
      );
    }
    if (sent - now > tolerance) {
      throw new WebhookVerificationError(
        'timestamp_too_new',
        `Webhook timestamp is too new (more than ${tolerance} seconds after now).`,
      );
    }
    const encoder = new TextEncoder();
    const body = typeof payload === 'string' ? encoder.encode(payload) : payload;
    const prefix = encoder.encode(`${id}.${timestamp}.`);
    const signed = new Uint8Array(prefix.length + body.length);
    signed.set(prefix);
    signed.set(body, prefix.length);
    const crypto = await subtle();
    const hmacKey = await crypto.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, [
      'verify',
    ]);
    for (const candidate of (signatures as string).split(' ')) {
      const comma = candidate.indexOf(',');
      if (comma < 0 || candidate.slice(0, comma) !== 'v1') continue;
      const signature = decodeBase64(candidate.slice(comma + 1));
      // Web Crypto's HMAC verify compares in constant time.
      if (signature !== undefined && (await crypto.verify('HMAC', hmacKey, signature, signed)))
        return;
    }
    throw new WebhookVerificationError(
      'invalid_signature',
      'No webhook-signature matches the payload.',
    );
  }

  /** Verifies the webhook (as `verify`), then returns its event: `{id, type, createdAt, organisationId, data}`. */
  async unwrap(
    payload: string | Uint8Array,
    headers: WebhookHeaders,
    secret: string | undefined = this.secret,
    options: WebhookVerifyOptions = {},
  ): Promise<WebhookEvent> {
    await this.verify(payload, headers, secret, options);
    let event: unknown;
    try {
      event = JSON.parse(typeof payload === 'string' ? payload : new TextDecoder().decode(payload));
    } catch {
      event = undefined;
    }
    const fields = event as Record<string, unknown> | undefined;
    if (
      fields === null ||
      typeof fields !== 'object' ||
      Array.isArray(fields) ||
      typeof fields.id !== 'string' ||
      typeof fields.type !== 'string' ||
      !('data' in fields)
    ) {
      throw new WebhookVerificationError(
        'invalid_payload',
        'Webhook payload is not an Interlock event.',
      );
    }
    return event as WebhookEvent;
  }
}
