/** A key as listed (SPEC §6): never the key itself. */
export interface ApiKeyResponse {
  id: string;
  name: string;
  start: string;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
}

/** The creation response: the only time the full key is shown. */
export interface CreatedApiKeyResponse extends ApiKeyResponse {
  key: string;
}
