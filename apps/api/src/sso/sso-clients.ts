import { createHash } from 'node:crypto';
import * as oidc from 'openid-client';

/** How long a provider's discovered configuration (endpoints, keys' location) is reused. */
const CACHE_MS = 10 * 60_000;
/** Seconds the service waits for the provider (discovery, token endpoint, keys). */
const TIMEOUT_SECONDS = 5;

/**
 * The relying-party side of OpenID Connect, done by `openid-client`: one discovered
 * configuration per (issuer, client id, secret), reused for ten minutes. Plain `http://`
 * issuers are allowed only outside production (a provider on the developer's machine).
 */
export class SsoClients {
  private readonly cache = new Map<string, { config: oidc.Configuration; at: number }>();

  constructor(private readonly allowHttp: boolean) {}

  /** The provider's configuration; throws (a message fit for the 400) when discovery fails. */
  async configuration(
    issuer: string,
    clientId: string,
    clientSecret: string,
    fresh = false,
  ): Promise<oidc.Configuration> {
    const key = createHash('sha256')
      .update(`${issuer}\n${clientId}\n${clientSecret}`)
      .digest('base64url');
    const cached = this.cache.get(key);
    if (!fresh && cached !== undefined && Date.now() - cached.at < CACHE_MS) return cached.config;
    const config = await oidc.discovery(
      new URL(issuer),
      clientId,
      clientSecret,
      // The OpenID Connect default when a client registers no other method.
      oidc.ClientSecretBasic(clientSecret),
      {
        execute: this.allowHttp ? [oidc.allowInsecureRequests] : [],
        timeout: TIMEOUT_SECONDS,
      },
    );
    if (this.cache.size > 1000) this.cache.clear();
    this.cache.set(key, { config, at: Date.now() });
    return config;
  }

  forget(): void {
    this.cache.clear();
  }
}

export { oidc };

/**
 * What went wrong, in words fit for an error message: `openid-client` wraps the specific error
 * of its checks (`unexpected JWT "aud" (audience) claim value`, …) in a general one.
 */
export function reasonOf(thrown: unknown): string {
  const error = thrown instanceof Error ? thrown : new Error(String(thrown));
  const specific =
    error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message;
  return specific.replace(/\s+/g, ' ').slice(0, 300);
}
