import { CursorCodec, type CursorScope } from './cursor-codec';

/** Where a page of a keyset listing ended: the last row's timestamp and id. */
export interface KeysetPosition {
  createdAt: Date;
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Cursors of the `(created_at, id)` keyset listings (interrupts, sessions, webhook deliveries). */
export class KeysetCursorCodec {
  private readonly codec: CursorCodec;

  /** `purpose` names the listing, e.g. `interrupts.list`: a cursor works on its own listing only. */
  constructor(secret: string, purpose: string) {
    this.codec = new CursorCodec(secret, purpose);
  }

  encode(scope: CursorScope, position: KeysetPosition): string {
    return this.codec.encode(scope, [position.createdAt.toISOString(), position.id]);
  }

  /** The position, or `undefined` when the cursor does not verify for this scope. */
  decode(scope: CursorScope, cursor: string): KeysetPosition | undefined {
    const fields = this.codec.decode(scope, cursor, 2);
    if (fields === undefined) return undefined;
    const [createdAt, id] = fields as [string, string];
    if (!ISO.test(createdAt) || !UUID.test(id)) return undefined;
    return { createdAt: new Date(createdAt), id };
  }
}
