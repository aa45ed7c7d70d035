import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { SignInSessionService } from './sign-in-session.service';
import type { SignedInMemberRow, SignInSessionsRepository } from './sign-in-sessions.repository';

const ORG = '6c0f7a52-93a3-4d55-9e4b-7c2b3f1a0e11';
const OTHER = '9d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6';
const TOKEN = 'a-cookie-token-of-enough-length';
const HASH = createHash('sha256').update(TOKEN).digest('hex');
const IDLE = 7 * 86_400_000;
const user = {
  sign_in_session_id: 's-1',
  user_id: 'u-ada',
  name: 'Ada',
  email: 'ada@example.com',
  last_used_at: new Date(),
  ip_address: '10.0.0.1',
  user_agent: 'Firefox',
  sso_organisation_id: null as string | null,
};
const none = {
  organisation_id: null,
  role_id: null,
  role_name: null,
  permissions: null,
  plan: null,
  password_refused: false,
  two_factor_refused: false,
};
const membership = (organisationId: string): SignedInMemberRow => ({
  ...user,
  organisation_id: organisationId,
  role_id: 'r-1',
  role_name: 'Reviewer',
  // A permission no longer in the catalogue is dropped, never granted.
  permissions: ['interrupt.read', 'retired.permission'],
  plan: 'pro',
  password_refused: false,
  two_factor_refused: false,
});

function setUp(rows: SignedInMemberRow[]) {
  const dataSource = {} as DataSource;
  const sessions = {
    insert: jest.fn(async () => undefined),
    findUser: jest.fn(async () => user),
    findMember: jest.fn(async () => rows),
    delete: jest.fn(async () => undefined),
    touch: jest.fn(async () => undefined),
  } as unknown as SignInSessionsRepository;
  return {
    service: new SignInSessionService(dataSource, sessions, {
      accounts: {
        passwordScryptLogN: 14,
        passwordResetTtlMs: 0,
        sessionIdleTimeoutMs: IDLE,
        emailVerification: 'optional',
        signUpConfirmation: 'instant',
        emailVerificationTtlMs: 0,
      },
    }),
    sessions,
    dataSource,
  };
}

describe('SignInSessionService', () => {
  it('stores only the SHA-256 of a new token, expiring in 30 days', async () => {
    const { service, sessions } = setUp([]);
    const tx = { query: jest.fn() };
    const before = Date.now();
    const { token, expiresAt } = await service.create(tx, 'u-ada');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(sessions.insert).toHaveBeenCalledWith(tx, {
      id: expect.any(String),
      userId: 'u-ada',
      tokenHash: createHash('sha256').update(token).digest('hex'),
      expiresAt,
      ssoOrganisationId: null,
    });
    expect(expiresAt.getTime() - before).toBeGreaterThanOrEqual(30 * 24 * 3600 * 1000 - 1000);
    expect(expiresAt.getTime() - before).toBeLessThanOrEqual(30 * 24 * 3600 * 1000 + 1000);
  });

  it('looks a member up by the hash of their token, for the organisation asked for', async () => {
    const { service, sessions, dataSource } = setUp([membership(ORG)]);
    const signIn = await service.authenticateMember(TOKEN, ORG);
    expect(sessions.findMember).toHaveBeenCalledWith(dataSource, HASH, ORG, IDLE);
    expect(signIn).toEqual({
      outcome: 'member',
      member: {
        kind: 'member',
        organisationId: ORG,
        plan: 'pro',
        memberId: 'u-ada',
        memberName: 'Ada',
        email: 'ada@example.com',
        roleId: 'r-1',
        roleName: 'Reviewer',
        signInSessionId: 's-1',
        signedInWith: 'password',
        permissions: new Set(['interrupt.read']),
      },
    });
  });

  it('tells apart nobody, no membership of the one asked for, none at all, single sign-on required, and several to choose from', async () => {
    expect(await setUp([]).service.authenticateMember(TOKEN, ORG)).toBeUndefined();
    expect(
      await setUp([{ ...user, ...none }]).service.authenticateMember(TOKEN, ORG),
    ).toMatchObject({ outcome: 'not_member', user: { userId: 'u-ada' } });
    expect(
      await setUp([{ ...user, ...none }]).service.authenticateMember(TOKEN, undefined),
    ).toMatchObject({ outcome: 'no_organisation' });
    // A session made by ORG's single sign-on, asked for another organisation: refused as such,
    // whether or not the person is a member there (the query found no membership either way).
    expect(
      await setUp([{ ...user, ...none, sso_organisation_id: ORG }]).service.authenticateMember(
        TOKEN,
        OTHER,
      ),
    ).toMatchObject({ outcome: 'sso_only', user: { ssoOrganisationId: ORG } });
    // …and asked for its own organisation, which it is no longer a member of: as anyone.
    expect(
      await setUp([{ ...user, ...none, sso_organisation_id: ORG }]).service.authenticateMember(
        TOKEN,
        ORG,
      ),
    ).toMatchObject({ outcome: 'not_member' });
    // A password session naming an organisation that requires single sign-on (not its Owner).
    expect(
      await setUp([{ ...membership(ORG), password_refused: true }]).service.authenticateMember(
        TOKEN,
        ORG,
      ),
    ).toMatchObject({ outcome: 'sso_required', user: { userId: 'u-ada' } });
    expect(
      await setUp([{ ...membership(ORG), password_refused: true }]).service.stillMember(TOKEN, ORG),
    ).toBeUndefined();
    // A password session without two-factor sign-in, naming an organisation that requires it.
    expect(
      await setUp([{ ...membership(ORG), two_factor_refused: true }]).service.authenticateMember(
        TOKEN,
        ORG,
      ),
    ).toMatchObject({ outcome: 'two_factor_required', user: { userId: 'u-ada' } });
    expect(
      await setUp([{ ...membership(ORG), two_factor_refused: true }]).service.stillMember(
        TOKEN,
        ORG,
      ),
    ).toBeUndefined();
    expect(
      await setUp([membership(ORG), membership(OTHER)]).service.authenticateMember(
        TOKEN,
        undefined,
      ),
    ).toMatchObject({
      outcome: 'several',
      user: {
        kind: 'user',
        userId: 'u-ada',
        userName: 'Ada',
        email: 'ada@example.com',
        signInSessionId: 's-1',
      },
    });
  });

  it('keeps a stream open only for a current member', async () => {
    expect(await setUp([membership(ORG)]).service.stillMember(TOKEN, ORG)).toMatchObject({
      kind: 'member',
      organisationId: ORG,
    });
    expect(await setUp([{ ...user, ...none }]).service.stillMember(TOKEN, ORG)).toBeUndefined();
  });

  it('authenticates a user and revokes a session through the owner of the table', async () => {
    const { service, sessions, dataSource } = setUp([]);
    expect(await service.authenticateUser(TOKEN)).toEqual({
      kind: 'user',
      userId: 'u-ada',
      userName: 'Ada',
      email: 'ada@example.com',
      signInSessionId: 's-1',
      ssoOrganisationId: null,
    });
    expect(sessions.findUser).toHaveBeenCalledWith(dataSource, HASH, IDLE);
    await service.revoke('s-1');
    expect(sessions.delete).toHaveBeenCalledWith(dataSource, 's-1');
  });

  it('records a use at most once a minute, and at once when the address or browser changes', async () => {
    const { service, sessions, dataSource } = setUp([]);
    const same = { ip: '10.0.0.1', userAgent: 'Firefox' };
    await service.authenticateUser(TOKEN, same);
    expect(sessions.touch).not.toHaveBeenCalled();
    await service.authenticateUser(TOKEN, { ip: '10.0.0.2', userAgent: 'Firefox' });
    expect(sessions.touch).toHaveBeenCalledWith(dataSource, 's-1', '10.0.0.2', 'Firefox');
    (sessions.touch as jest.Mock).mockClear();
    (sessions.findUser as jest.Mock).mockResolvedValueOnce({
      ...user,
      last_used_at: new Date(Date.now() - 61_000),
    });
    await service.authenticateUser(TOKEN, same);
    expect(sessions.touch).toHaveBeenCalledWith(dataSource, 's-1', '10.0.0.1', 'Firefox');
  });
});
