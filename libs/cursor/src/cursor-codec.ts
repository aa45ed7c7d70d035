import {
  createHmac,
  createSecretKey,
  hkdfSync,
  type KeyObject,
  timingSafeEqual,
} from 'node:crypto';

/** Longer tokens are refused before any work: every cursor the service issues is far shorter. */
export const MAX_CURSOR_LENGTH = 512;

const SALT = 'interlock/cursor';

/** Signatures of the cursors a codec issued last, kept (at most this many; then it starts over). */
export const SIGNATURES_KEPT = 1024;

/**
 * The key of one kind of cursor: HKDF-SHA-256 over the server's cursor secret, with the kind
 * (`purpose`, e.g. `interrupts.list`) in the info. Each kind has its own key, and none is the
 * API-key pepper: the pepper and the cursor secret rotate independently.
 */
export function deriveCursorKey(secret: string, purpose: string): Buffer {
  if (secret.length === 0) throw new Error('A cursor secret is required');
  return Buffer.from(
    hkdfSync('sha256', Buffer.from(secret, 'utf8'), SALT, `interlock/cursor/${purpose}/v2`, 32),
  );
}

/**
 * What a cursor is bound to besides its own fields: the organisation it was issued for and a
 * canonical string of the listing's other parameters (its filters). A cursor decodes only under
 * the same scope.
 */
export interface CursorScope {
  organisationId: string;
  filters: string;
}

/**
 * The one cursor format: `base64url(JSON array of strings) "." base64url(HMAC-SHA-256, 16 bytes)`,
 * the MAC over the organisation, the filters and the payload under the kind's own key. Opaque to
 * clients; a cursor that was altered, forged, issued for another organisation, other filters or
 * another kind of listing, or under another secret, does not decode.
 */
export class CursorCodec {
  /** The kind's key as a key object, made once: an HMAC over a Buffer imports the key each time. */
  private readonly key: KeyObject;
  /**
   * The signature of each cursor issued lately, by the text signed: a page read again (an agent
   * polling its first page) issues the same cursor, and the next page verifies the one issued,
   * each an HMAC (~5 % of a page's CPU, issue 28) where a lookup does. Only what `encode` signed
   * is kept; a token to verify that is not kept is signed afresh and compared as before.
   */
  private readonly signatures = new Map<string, string>();

  constructor(secret: string, purpose: string) {
    this.key = createSecretKey(deriveCursorKey(secret, purpose));
  }

  encode(scope: CursorScope, fields: readonly string[]): string {
    const payload = Buffer.from(JSON.stringify(fields)).toString('base64url');
    const signed = signedText(scope, payload);
    let signature = this.signatures.get(signed);
    if (signature === undefined) {
      signature = this.sign(signed);
      if (this.signatures.size >= SIGNATURES_KEPT) this.signatures.clear();
      this.signatures.set(signed, signature);
    }
    return `${payload}.${signature}`;
  }

  /** The fields, exactly `arity` strings, or `undefined` when the cursor does not verify. */
  decode(scope: CursorScope, token: string, arity: number): string[] | undefined {
    if (token.length > MAX_CURSOR_LENGTH) return undefined;
    const parts = token.split('.');
    if (parts.length !== 2 || parts[0] === '' || parts[1] === '') return undefined;
    const [payload, signature] = parts as [string, string];
    // Compared as text: base64url has several spellings of the same bytes, a cursor has one.
    const given = Buffer.from(signature);
    const signed = signedText(scope, payload);
    const expected = Buffer.from(this.signatures.get(signed) ?? this.sign(signed));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      return undefined;
    }
    if (
      !Array.isArray(parsed) ||
      parsed.length !== arity ||
      !parsed.every((x) => typeof x === 'string')
    )
      return undefined;
    return parsed as string[];
  }

  private sign(signed: string): string {
    return createHmac('sha256', this.key)
      .update(signed)
      .digest()
      .subarray(0, 16)
      .toString('base64url');
  }
}

/** What a cursor's MAC is over: the organisation, the filters and the payload. */
function signedText(scope: CursorScope, payload: string): string {
  return JSON.stringify([scope.organisationId, scope.filters, payload]);
}
