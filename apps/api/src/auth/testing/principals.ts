import type { ApiKeyPrincipal, MemberPrincipal, UserPrincipal } from '../principal';

// The principals the guards' unit specs hand to a request: one organisation `o`, a key `k` and
// Ada (`m`, signed in as `s`), each with what a spec changes given as overrides.

export const keyPrincipal = (overrides: Partial<ApiKeyPrincipal> = {}): ApiKeyPrincipal => ({
  kind: 'api_key',
  organisationId: 'o',
  plan: 'free',
  apiKeyId: 'k',
  apiKeyName: 'n',
  ...overrides,
});

export const memberPrincipal = (overrides: Partial<MemberPrincipal> = {}): MemberPrincipal => ({
  kind: 'member',
  organisationId: 'o',
  plan: 'free',
  memberId: 'm',
  memberName: 'Ada',
  email: 'ada@example.test',
  roleId: 'r',
  roleName: 'Owner',
  signInSessionId: 's',
  signedInWith: 'password',
  permissions: new Set(),
  ...overrides,
});

export const userPrincipal = (overrides: Partial<UserPrincipal> = {}): UserPrincipal => ({
  kind: 'user',
  userId: 'm',
  userName: 'Ada',
  email: 'ada@example.test',
  signInSessionId: 's',
  ssoOrganisationId: null,
  ...overrides,
});
