import { createHash } from 'node:crypto';
import { CursorCodec } from '@interlock/cursor';

/**
 * A walk's position: the last entry returned (createdAt to the millisecond, as stored, and its
 * sequence number), the walk's snapshot (the newest sequence number when the walk began), and a
 * digest of the walk's other parameters. Opaque to clients: a cursor of the one codec of
 * `@interlock/cursor`, bound to the organisation.
 */
export interface AuditCursor {
  createdAt: string;
  seq: string;
  snapshot: string;
  digest: string;
}

/** The audit log's walk cursors, under their own key derived from the server's cursor secret. */
export class AuditCursorCodec {
  private readonly codec: CursorCodec;

  constructor(secret: string) {
    this.codec = new CursorCodec(secret, 'audit-log.walk');
  }

  encode(organisationId: string, cursor: AuditCursor): string {
    // The digest travels inside the cursor (not in the MAC's scope) so that a cursor reused with
    // other parameters is told apart from one that is not a cursor at all.
    return this.codec.encode({ organisationId, filters: '' }, [
      cursor.createdAt,
      cursor.seq,
      cursor.snapshot,
      cursor.digest,
    ]);
  }

  /** The cursor, or null when it is malformed, forged, altered or another organisation's. */
  decode(organisationId: string, token: string): AuditCursor | null {
    const fields = this.codec.decode({ organisationId, filters: '' }, token, 4);
    if (fields === undefined) return null;
    const [createdAt, seq, snapshot, digest] = fields as [string, string, string, string];
    if (
      Number.isNaN(Date.parse(createdAt)) ||
      !/^\d{1,19}$/.test(seq) ||
      !/^\d{1,19}$/.test(snapshot)
    )
      return null;
    return { createdAt, seq, snapshot, digest };
  }
}

/** Digests of the parameter texts seen last (most walks repeat a handful of filter sets). */
const digests = new Map<string, string>();
/** Texts remembered at most; past it the memory starts again. */
export const DIGESTS_KEPT = 256;

/** A stable digest of a walk's parameters (everything but the cursor). */
export function parametersDigest(parameters: Record<string, unknown>): string {
  const canonical = JSON.stringify(
    Object.keys(parameters)
      .sort()
      .map((k) => [k, parameters[k] ?? null]),
  );
  let digest = digests.get(canonical);
  if (digest === undefined) {
    digest = createHash('sha256').update(canonical).digest('base64url').slice(0, 22);
    if (digests.size >= DIGESTS_KEPT) digests.clear();
    digests.set(canonical, digest);
  }
  return digest;
}
