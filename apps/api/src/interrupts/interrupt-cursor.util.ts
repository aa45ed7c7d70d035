import { createHmac, timingSafeEqual } from 'node:crypto';

/** Where a page ended: the last interrupt's createdAt and id (the keyset of the listing). */
export interface InterruptPosition {
  createdAt: Date;
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * Opaque cursors for GET /api/interrupts: the position, and an HMAC over it and the listing's
 * filters under a key derived from the server secret for this purpose alone. A cursor that was
 * altered, forged, or reused with other filters does not verify.
 */
export class InterruptCursorCodec {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = createHmac('sha256', secret).update('interlock/cursor/interrupts.list/v1').digest();
  }

  encode(position: InterruptPosition, filters: string): string {
    const payload = Buffer.from(JSON.stringify([position.createdAt.toISOString(), position.id])).toString('base64url');
    return `${payload}.${this.sign(payload, filters)}`;
  }

  /** The position, or `undefined` when the cursor does not verify for these filters. */
  decode(cursor: string, filters: string): InterruptPosition | undefined {
    const [payload, signature, ...rest] = cursor.split('.');
    if (rest.length > 0 || payload === undefined || signature === undefined) return undefined;
    const expected = Buffer.from(this.sign(payload, filters));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      return undefined;
    }
    if (!Array.isArray(parsed) || parsed.length !== 2) return undefined;
    const [createdAt, id] = parsed as unknown[];
    if (typeof createdAt !== 'string' || !ISO.test(createdAt) || typeof id !== 'string' || !UUID.test(id)) return undefined;
    return { createdAt: new Date(createdAt), id };
  }

  private sign(payload: string, filters: string): string {
    return createHmac('sha256', this.key).update(`${payload}\n${filters}`).digest('base64url');
  }
}
