import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** A new signing secret: `whsec_` and the base64 of 32 random bytes (SPEC §8a). */
export function generateWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Keeps signing secrets encrypted at rest. The service signs every delivery with the secret, so
 * (unlike API keys) it cannot keep a hash: it keeps AES-256-GCM ciphertext under a key derived
 * (HKDF-SHA-256) from the server secret `API_KEY_PEPPER` for this purpose alone. The row's
 * organisation and webhook ids are the additional data, so a ciphertext copied to another row
 * does not open. A database dump alone reveals no secret; the pepper alone reveals none either.
 */
export class WebhookSecretBox {
  private readonly key: Buffer;

  /** `purpose` keeps each use's key apart (the notifications seal invitation links and Slack credentials with their own). */
  constructor(serverSecret: string, purpose = 'webhook-signing-secrets/v1') {
    this.key = Buffer.from(hkdfSync('sha256', serverSecret, 'interlock', purpose, 32));
  }

  seal(secret: string, organisationId: string, webhookId: string): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(`${organisationId}/${webhookId}`));
    const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]);
  }

  /** The secret; throws when the ciphertext was altered, moved or sealed under another server secret. */
  open(sealed: Buffer, organisationId: string, webhookId: string): string {
    if (sealed.length < 1 + IV_BYTES + TAG_BYTES || sealed[0] !== VERSION)
      throw new Error('unknown webhook secret format');
    const iv = sealed.subarray(1, 1 + IV_BYTES);
    const tag = sealed.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAAD(Buffer.from(`${organisationId}/${webhookId}`));
    decipher.setAuthTag(tag);
    return Buffer.concat([
      decipher.update(sealed.subarray(1 + IV_BYTES + TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
  }
}
