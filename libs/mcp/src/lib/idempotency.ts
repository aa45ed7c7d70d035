import { createHash } from 'node:crypto';

/** JSON with every object's keys sorted, so `{a, b}` and `{b, a}` are the same request. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * The `Idempotency-Key` of a tool call that opens an interrupt: derived from the tool, the API
 * key that opens it and the exact request it sends, so a retried call — the client timed out,
 * the model called again — finds the interrupt the first call opened instead of asking the
 * humans twice. The API keeps idempotency keys 24 hours per organisation: the API key's id keeps
 * two agents of one organisation asking the same thing from sharing one interrupt (each lists its
 * own with list_pending).
 */
export function idempotencyKeyFor(tool: string, apiKeyId: string, body: unknown): string {
  return `mcp-${tool}-${createHash('sha256').update(canonicalJson({ apiKeyId, body })).digest('hex')}`;
}
