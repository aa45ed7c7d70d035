import type { GranterCall } from '../auth/caller';

/** The organisation's OpenID Connect provider and who may sign in through it (SPEC §8f). */
export interface SsoConnectionSettings {
  issuer: string;
  clientId: string;
  /** Left out when changing a connection: the saved secret stays. */
  clientSecret?: string;
  allowedDomains: string[];
  /** The role a first sign-in joins with: the granter must hold all its permissions. */
  defaultRoleId: string;
}

/**
 * Set up or change the organisation's single sign-on: the input of `SsoSettingsService.put`,
 * built by the REST controller from its validated body (the `PutSsoConnectionDto` is a
 * `SsoConnectionSettings`) and the member's `@GranterCaller()`.
 */
export interface PutSsoConnectionCommand extends GranterCall {
  connection: SsoConnectionSettings;
}
