/** When a new key expires (SPEC §2): never, or 7, 30 or 90 days after its creation. */
export const API_KEY_EXPIRIES = ['never', '7d', '30d', '90d'] as const;
export type ApiKeyExpiry = (typeof API_KEY_EXPIRIES)[number];
