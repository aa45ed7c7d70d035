import { createHash } from 'node:crypto';

/**
 * RFC 8785 (JSON Canonicalization Scheme) for the JSON values an interrupt carries: object keys
 * sorted by their UTF-16 code units, no whitespace, strings and numbers as ECMAScript's
 * JSON.stringify writes them (which is what RFC 8785 prescribes). Values that JSON cannot carry
 * (undefined, functions, non-finite numbers) are refused rather than silently dropped.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string')
    return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value))
      throw new Error('canonical JSON has no form for a non-finite number');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(
      ([, v]) => v !== undefined,
    );
    // Array.prototype.sort compares strings by UTF-16 code units, as RFC 8785 §3.2.3 asks.
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  throw new Error(`canonical JSON has no form for a ${typeof value}`);
}

/**
 * What one action request asks, as a fingerprint (SPEC §8e): the hex SHA-256 of the canonical
 * JSON of `{interruptId, name, args}`. A decision taken on the strength of a digest (an emailed
 * action link) holds only while the action still hashes to it.
 */
export function actionDigest(
  interruptId: string,
  name: string,
  args: Record<string, unknown> | null | undefined,
): string {
  return createHash('sha256')
    .update(canonicalJson({ interruptId, name, args: args ?? {} }))
    .digest('hex');
}
