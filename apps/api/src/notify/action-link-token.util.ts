import { createHmac, hkdfSync, randomUUID, timingSafeEqual } from 'node:crypto';

/** What an emailed action link may do, and for whom: it decides exactly this, once, until `expiresAt`. */
export interface ActionLinkClaims {
  organisationId: string;
  interruptId: string;
  actionName: string;
  decision: 'approve' | 'reject';
  /** The member the email went to: the decision is theirs. */
  userId: string;
  /** The action's digest when the email was sent (SPEC §8e): a different action is not decided. */
  actionDigest: string;
  /** Seconds since the epoch. */
  expiresAt: number;
  /** The link's own id: a link is used once (the notify module records the uses). */
  nonce: string;
}

/** How long an emailed action link works (issue 30: 24 hours). */
export const ACTION_LINK_TTL_SECONDS = 24 * 60 * 60;

const PREFIX = 'al1';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Signs and checks the single-use action links of notification emails (issue 30, §2): a token
 * `al1.<claims>.<mac>`, the claims as base64url JSON and the mac an HMAC-SHA-256 over the prefix
 * and the claims, under a key derived (HKDF) from the server secret for this purpose alone. The
 * token is a bearer credential: it travels in the link's fragment (never sent to a server, so
 * never in an access log or a scanner's request) and in a POST body.
 */
export class ActionLinkSigner {
  private readonly key: Buffer;

  constructor(serverSecret: string) {
    this.key = Buffer.from(
      hkdfSync('sha256', serverSecret, 'interlock', 'notification-action-links/v1', 32),
    );
  }

  mint(
    claims: Omit<ActionLinkClaims, 'nonce' | 'expiresAt'> & { nonce?: string; expiresAt?: number },
    now = Date.now(),
  ): string {
    const full: ActionLinkClaims = {
      ...claims,
      nonce: claims.nonce ?? randomUUID(),
      expiresAt: claims.expiresAt ?? Math.floor(now / 1000) + ACTION_LINK_TTL_SECONDS,
    };
    const body = Buffer.from(
      JSON.stringify({
        o: full.organisationId,
        i: full.interruptId,
        a: full.actionName,
        d: full.decision,
        u: full.userId,
        h: full.actionDigest,
        e: full.expiresAt,
        n: full.nonce,
      }),
    ).toString('base64url');
    return `${PREFIX}.${body}.${this.mac(body)}`;
  }

  /** The claims of a token this service signed, or null for anything else (expiry is the caller's check). */
  read(token: unknown): ActionLinkClaims | null {
    if (typeof token !== 'string' || token.length > 4096) return null;
    const parts = token.split('.');
    if (parts.length !== 3 || parts[0] !== PREFIX) return null;
    const [, body, mac] = parts;
    const expected = Buffer.from(this.mac(body));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    let raw: Record<string, unknown>;
    try {
      raw = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>;
    } catch {
      return null;
    }
    const claims = {
      organisationId: raw.o,
      interruptId: raw.i,
      actionName: raw.a,
      decision: raw.d,
      userId: raw.u,
      actionDigest: raw.h,
      expiresAt: raw.e,
      nonce: raw.n,
    };
    const ok =
      [claims.organisationId, claims.interruptId, claims.userId, claims.nonce].every(
        (v) => typeof v === 'string' && UUID.test(v),
      ) &&
      typeof claims.actionName === 'string' &&
      (claims.decision === 'approve' || claims.decision === 'reject') &&
      typeof claims.actionDigest === 'string' &&
      /^[0-9a-f]{64}$/.test(claims.actionDigest) &&
      Number.isSafeInteger(claims.expiresAt);
    return ok ? (claims as ActionLinkClaims) : null;
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(`${PREFIX}.${body}`).digest('base64url');
  }
}
