import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A walk's position: the last entry returned (createdAt to the millisecond, as stored, and its
 * sequence number), the walk's snapshot (the newest sequence number when the walk began), and a
 * digest of the walk's other parameters. Opaque to clients; signed, so tampering is detected.
 */
export interface AuditCursor {
  createdAt: string;
  seq: string;
  snapshot: string;
  digest: string;
}

const CONTEXT = 'interlock:audit-log-cursor:v1';

function sign(secret: string, organisationId: string, payload: string): Buffer {
  return createHmac('sha256', secret).update(`${CONTEXT}\n${organisationId}\n${payload}`).digest().subarray(0, 16);
}

export function encodeCursor(secret: string, organisationId: string, cursor: AuditCursor): string {
  const payload = Buffer.from(JSON.stringify([cursor.createdAt, cursor.seq, cursor.snapshot, cursor.digest])).toString(
    'base64url',
  );
  return `${payload}.${sign(secret, organisationId, payload).toString('base64url')}`;
}

/** The cursor, or null when it is malformed, forged, altered or another organisation's. */
export function decodeCursor(secret: string, organisationId: string, token: string): AuditCursor | null {
  if (token.length > 512) return null;
  const dot = token.indexOf('.');
  if (dot <= 0) return null;
  const payload = token.slice(0, dot);
  const signature = Buffer.from(token.slice(dot + 1), 'base64url');
  const expected = sign(secret, organisationId, payload);
  if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    if (!Array.isArray(parsed) || parsed.length !== 4 || !parsed.every((x) => typeof x === 'string')) return null;
    const [createdAt, seq, snapshot, digest] = parsed as string[];
    if (Number.isNaN(Date.parse(createdAt)) || !/^\d{1,19}$/.test(seq) || !/^\d{1,19}$/.test(snapshot)) return null;
    return { createdAt, seq, snapshot, digest };
  } catch {
    return null;
  }
}

/** A stable digest of a walk's parameters (everything but the cursor). */
export function parametersDigest(parameters: Record<string, unknown>): string {
  const canonical = JSON.stringify(Object.keys(parameters).sort().map((k) => [k, parameters[k] ?? null]));
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 22);
}
