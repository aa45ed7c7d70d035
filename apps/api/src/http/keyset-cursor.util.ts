import { createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError } from './api-error';

/** Where a page ended: the last row's timestamp and id (the keyset of a listing). */
export interface KeysetPosition {
  createdAt: Date;
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * Opaque cursors for keyset listings (interrupts, sessions): the position, and an HMAC over it
 * and the listing's filters under a key derived from the server secret for `purpose` alone. A
 * cursor that was altered, forged, reused with other filters or on another listing does not
 * verify.
 */
export class KeysetCursorCodec {
  private readonly key: Buffer;

  /** `purpose` names the listing, e.g. `interrupts.list`. */
  constructor(secret: string, purpose: string) {
    this.key = createHmac('sha256', secret).update(`interlock/cursor/${purpose}/v1`).digest();
  }

  encode(position: KeysetPosition, filters: string): string {
    const payload = Buffer.from(JSON.stringify([position.createdAt.toISOString(), position.id])).toString('base64url');
    return `${payload}.${this.sign(payload, filters)}`;
  }

  /** The position, or `undefined` when the cursor does not verify for these filters. */
  decode(cursor: string, filters: string): KeysetPosition | undefined {
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

/**
 * One page of a keyset listing: decodes `cursor` for these filters (400 when it does not
 * verify), asks `fetch` for up to `limit + 1` rows after that position, and encodes the next
 * cursor from the page's last row when there are more.
 */
export async function keysetPage<Row extends { id: string }>(
  codec: KeysetCursorCodec,
  request: { filters: string; cursor: string | undefined; limit: number },
  positionOf: (row: Row) => Date,
  fetch: (after: KeysetPosition | undefined, take: number) => Promise<Row[]>,
): Promise<{ rows: Row[]; nextCursor: string | null }> {
  let after: KeysetPosition | undefined;
  if (request.cursor !== undefined) {
    after = codec.decode(request.cursor, request.filters);
    if (after === undefined) {
      throw new ApiError('VALIDATION_FAILED', 'cursor is not a valid cursor for this listing (use nextCursor with the same filters).');
    }
  }
  const rows = await fetch(after, request.limit + 1);
  const page = rows.slice(0, request.limit);
  const last = page[page.length - 1];
  return {
    rows: page,
    nextCursor:
      rows.length > request.limit && last !== undefined ? codec.encode({ createdAt: positionOf(last), id: last.id }, request.filters) : null,
  };
}
