/** The part of Web Crypto's `SubtleCrypto` the SDK uses: HMAC for webhooks, SHA-256 for action digests. */
export interface Subtle {
  importKey(
    format: 'raw',
    key: Uint8Array,
    algorithm: { name: 'HMAC'; hash: 'SHA-256' },
    extractable: false,
    usages: ['verify'] | ['sign'],
  ): Promise<unknown>;
  verify(
    algorithm: 'HMAC',
    key: unknown,
    signature: Uint8Array,
    data: Uint8Array,
  ): Promise<boolean>;
  sign(algorithm: 'HMAC', key: unknown, data: Uint8Array): Promise<ArrayBuffer>;
  digest(algorithm: 'SHA-256', data: Uint8Array): Promise<ArrayBuffer>;
}

/** Web Crypto's `subtle`: the runtime's global, or on Node 18 (which has none) `node:crypto`'s. */
export async function subtle(): Promise<Subtle> {
  const global = (globalThis as { crypto?: { subtle?: Subtle } }).crypto?.subtle;
  if (global !== undefined) return global;
  // Node 18 keeps Web Crypto in node:crypto rather than on globalThis. A computed specifier, so
  // bundlers for other runtimes leave it alone (they have the global).
  const specifier = 'node:crypto';
  const nodeCrypto = (await import(specifier)) as { webcrypto: { subtle: Subtle } };
  return nodeCrypto.webcrypto.subtle;
}
