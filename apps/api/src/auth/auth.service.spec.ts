import { DomainError, type Permission } from '@interlock/domain';
import type { AppConfig } from '../config/app-config';
import { fakeDataSource } from '../database/testing/fake-data-source';
import type { OrganisationSetupService } from '../organisation/organisation-setup.service';
import type { OrganisationsRepository } from '../organisation/organisations.repository';
import type { AuthAttemptLimiter } from '../rate-limits/auth-attempt-limiter.service';
import type { EmailVerificationService } from '../users/email-verification.service';
import type { TwoFactorService } from '../users/two-factor.service';
import * as users from '../users/users.repository';
import type { Logger } from 'pino';
import type { Mailer } from '../mail/mailer';
import { AfterAnswer } from '../users/after-answer';
import { AuthService } from './auth.service';
import { hashPassword, verifyPassword } from './password.util';
import type { SignInSessionService } from './sign-in-session.service';

// The users' owner and the account description are function-style: faked here. The password
// functions are stand-ins (scrypt is deliberately slow); the decoy is what an unknown email checks.
jest.mock('../users/users.repository', () => ({
  ...jest.requireActual('../users/users.repository'),
  insertUser: jest.fn(async () => 'u-ada'),
  findUserByEmail: jest.fn(),
  replacePasswordHash: jest.fn(async () => true),
}));
jest.mock('../users/account.util', () => ({
  describeAccount: jest.fn(async (_db: unknown, userId: string) => ({
    userId,
    organisations: [{ id: 'o-open' }, { id: 'o-sso' }],
  })),
  describeJoined: jest.fn(async (_db: unknown, userId: string, organisationId: string) => ({
    userId,
    organisationId,
    user: { id: userId, name: 'Ada', email: 'ada@example.com', emailVerified: false },
  })),
}));
// Single sign-on's requirement reads the person's organisations (its SQL has e2e tests): faked.
jest.mock('../sso/sso-requirement.util', () => ({
  admitPasswordSignIn: jest.fn(async () => undefined),
  refusedToPassword: jest.fn(async () => new Set(['o-sso'])),
}));
jest.mock('./password.util', () => ({
  hashPassword: jest.fn(async () => 'scrypt$new'),
  verifyPassword: jest.fn(
    async (password: string, hash: string) => hash === 'scrypt$ada' && password === 'correct horse',
  ),
  needsRehash: jest.fn(() => false),
  decoyPasswordHash: jest.fn(async () => 'scrypt$decoy'),
  // As the real one, on the fakes above: a stored value that is no hash is checked against the decoy.
  passwordMatches: jest.fn(async (password: string, stored: string | undefined) => {
    const fake = jest.requireMock('./password.util');
    if (stored?.startsWith('scrypt$') === true) return fake.verifyPassword(password, stored);
    await fake.verifyPassword(password, await fake.decoyPasswordHash());
    return false;
  }),
}));
const fakeUsers = users as jest.Mocked<typeof users>;

const ORG = '6c0f7a52-93a3-4d55-9e4b-7c2b3f1a0e11';
const signUp = {
  email: ' Ada@Example.com',
  password: 'correct horse',
  name: 'Ada',
  organisationName: 'Acme',
};

function setUp(
  signup: 'open' | 'closed' = 'open',
  signUpConfirmation: 'instant' | 'link' = 'instant',
) {
  const { dataSource, tx } = fakeDataSource();
  const succeeded = jest.fn(async () => undefined);
  const limiter = {
    signUpAttempt: jest.fn(async () => undefined),
    beginSignIn: jest.fn(async () => succeeded),
    addressProven: jest.fn(async () => undefined),
  } as unknown as AuthAttemptLimiter;
  const signIns = {
    create: jest.fn(async () => ({ token: 'cookie-token', expiresAt: new Date(0) })),
  } as unknown as SignInSessionService;
  const setup = {
    create: jest.fn(async () => ({ organisationId: ORG, roleIds: {} })),
  } as unknown as OrganisationSetupService;
  const organisations = {
    read: jest.fn(async () => ({ id: ORG, name: 'Acme', plan: 'pro', created_at: new Date(0) })),
  } as unknown as OrganisationsRepository;
  const verification = { newAccount: jest.fn() } as unknown as EmailVerificationService;
  const twoFactor = {
    signInStep: jest.fn(async (): Promise<unknown> => undefined),
  };
  const mailer = { send: jest.fn(async () => ({ messageId: 'm' })) } as unknown as Mailer;
  const afterAnswer = new AfterAnswer({ error: jest.fn() } as unknown as Logger);
  const service = new AuthService(
    dataSource,
    signIns,
    setup,
    organisations,
    limiter,
    verification,
    twoFactor as unknown as TwoFactorService,
    mailer,
    afterAnswer,
    {
      signup,
      apiKeyPepper: 'a pepper for the unit tests, long enough',
      dashboardUrl: 'https://interlock.example.com',
      accounts: { passwordScryptLogN: 17, passwordResetTtlMs: 1_800_000, signUpConfirmation },
    } as AppConfig,
  );
  return {
    service,
    limiter,
    succeeded,
    signIns,
    setup,
    organisations,
    verification,
    twoFactor,
    tx,
    mailer,
  };
}

beforeEach(() => jest.clearAllMocks());

describe('AuthService', () => {
  it('signs up: throttled by the normalised email, then user, organisation and sign-in session in one transaction', async () => {
    const { service, limiter, setup, signIns, verification, tx } = setUp();
    const signedIn = await service.signUp({ ...signUp, ip: '203.0.113.7' });
    expect(limiter.signUpAttempt).toHaveBeenCalledWith('ada@example.com', '203.0.113.7');
    expect(fakeUsers.insertUser).toHaveBeenCalledWith(
      tx,
      { email: signUp.email, name: 'Ada', passwordHash: 'scrypt$new' },
      undefined,
    );
    expect(setup.create).toHaveBeenCalledWith(tx, {
      organisationName: 'Acme',
      owner: { userId: 'u-ada', name: 'Ada' },
      ipAddress: '203.0.113.7',
    });
    expect(signIns.create).toHaveBeenCalledWith(tx, 'u-ada');
    const user = { id: 'u-ada', name: 'Ada', email: 'ada@example.com', emailVerified: false };
    expect(signedIn).toEqual({
      kind: 'signed_in',
      token: 'cookie-token',
      expiresAt: new Date(0),
      body: { userId: 'u-ada', organisationId: ORG, user },
    });
    // The verification link goes to the new address once the account exists (SPEC §8f).
    expect(verification.newAccount).toHaveBeenCalledWith(user);
  });

  it('with link confirmation answers before any lookup, alike for a taken and a new address; the emails follow', async () => {
    const { service, limiter, setup, mailer } = setUp('open', 'link');
    // The lookup is held until the answers are in: they must not wait for it.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    fakeUsers.findUserByEmail.mockImplementation(async (_db, email: string) => {
      await held;
      return email === 'taken@example.com'
        ? {
            id: 'u-grace',
            email,
            name: 'Grace',
            password_hash: 'scrypt$g',
            email_verified_at: null,
          }
        : undefined;
    });
    const taken = await service.signUp({ ...signUp, email: 'Taken@Example.com', ip: null });
    const fresh = await service.signUp({ ...signUp, ip: null });
    // Answered alike while the lookups wait; the same work (throttle, hash) for both.
    expect(taken).toEqual({ kind: 'link_sent', body: { email: 'taken@example.com' } });
    expect(fresh).toEqual({ kind: 'link_sent', body: { email: 'ada@example.com' } });
    expect(limiter.signUpAttempt).toHaveBeenCalledTimes(2);
    expect(hashPassword).toHaveBeenCalledTimes(2);
    expect(mailer.send).not.toHaveBeenCalled();
    release();
    await service.settled();
    expect(fakeUsers.insertUser).not.toHaveBeenCalled();
    expect(setup.create).not.toHaveBeenCalled();
    const sent = (mailer.send as jest.Mock).mock.calls.map(([mail]) => [mail.to, mail.subject]);
    expect(sent).toEqual(
      expect.arrayContaining([
        ['taken@example.com', 'You already have an Interlock account'],
        ['ada@example.com', 'Finish signing up for Interlock'],
      ]),
    );
    expect(sent).toHaveLength(2);
  });

  it('refuses sign-up when it is closed, before counting or writing anything', async () => {
    const { service, limiter } = setUp('closed');
    await expect(service.signUp({ ...signUp, ip: null })).rejects.toMatchObject({
      code: 'SIGNUP_CLOSED',
      message: 'Sign-up is closed on this server; ask an administrator for an invitation.',
    });
    expect(limiter.signUpAttempt).not.toHaveBeenCalled();
    expect(fakeUsers.insertUser).not.toHaveBeenCalled();
  });

  it('signs in with the right password: the throttle is told of the success, a session begins', async () => {
    fakeUsers.findUserByEmail.mockResolvedValue({
      id: 'u-ada',
      email: 'ada@example.com',
      name: 'Ada',
      password_hash: 'scrypt$ada',
      email_verified_at: null,
    });
    const { service, limiter, succeeded, signIns } = setUp();
    const signedIn = await service.signIn('Ada@example.com', 'correct horse', '192.0.2.1');
    expect(limiter.beginSignIn).toHaveBeenCalledWith('ada@example.com', '192.0.2.1', 'scrypt$ada');
    expect(succeeded).toHaveBeenCalledTimes(1);
    // The owner proved themselves from this address: the backstop leaves it out (SPEC §8b).
    expect(limiter.addressProven).toHaveBeenCalledWith(
      'ada@example.com',
      '192.0.2.1',
      'scrypt$ada',
    );
    expect(signIns.create).toHaveBeenCalledWith(expect.anything(), 'u-ada');
    // A password session lists only what it acts for (not what requires single sign-on).
    expect(signedIn.body).toEqual({ userId: 'u-ada', organisations: [{ id: 'o-open' }] });
  });

  it('a sign-in refused because single sign-on is required is no failure (the password was right), and begins no session', async () => {
    fakeUsers.findUserByEmail.mockResolvedValue({
      id: 'u-ada',
      email: 'ada@example.com',
      name: 'Ada',
      password_hash: 'scrypt$ada',
      email_verified_at: null,
    });
    const { service, succeeded, signIns, limiter } = setUp();
    const requirement = jest.requireMock('../sso/sso-requirement.util');
    requirement.admitPasswordSignIn.mockRejectedValueOnce(
      new DomainError('SSO_REQUIRED', 'Acme signs its members in with single sign-on: …'),
    );
    await expect(service.signIn('ada@example.com', 'correct horse', null)).rejects.toMatchObject({
      code: 'SSO_REQUIRED',
    });
    expect(requirement.admitPasswordSignIn).toHaveBeenCalledWith(
      expect.anything(),
      { id: 'u-ada', name: 'Ada', email: 'ada@example.com' },
      null,
    );
    expect(succeeded).toHaveBeenCalledTimes(1);
    expect(signIns.create).not.toHaveBeenCalled();
    expect(limiter.addressProven).not.toHaveBeenCalled();
  });

  it('replaces a hash made at another cost by one at today’s, only while it is still the one verified', async () => {
    fakeUsers.findUserByEmail.mockResolvedValue({
      id: 'u-ada',
      email: 'ada@example.com',
      name: 'Ada',
      password_hash: 'scrypt$ada',
      email_verified_at: null,
    });
    const { service } = setUp();
    const passwords = jest.requireMock('./password.util');
    passwords.needsRehash.mockReturnValueOnce(true);
    await service.signIn('ada@example.com', 'correct horse', null);
    expect(passwords.needsRehash).toHaveBeenCalledWith('scrypt$ada', 17);
    expect(passwords.hashPassword).toHaveBeenCalledWith('correct horse', 17);
    expect(fakeUsers.replacePasswordHash).toHaveBeenCalledWith(
      expect.anything(),
      'u-ada',
      'scrypt$new',
      'scrypt$ada',
    );
    fakeUsers.replacePasswordHash.mockClear();
    await service.signIn('ada@example.com', 'correct horse', null);
    expect(fakeUsers.replacePasswordHash).not.toHaveBeenCalled();
  });

  it('answers a wrong password and an unknown email alike, each after one password check, with no session', async () => {
    for (const user of [
      {
        id: 'u-ada',
        email: 'ada@example.com',
        name: 'Ada',
        password_hash: 'scrypt$ada',
        email_verified_at: null,
      },
      undefined,
    ]) {
      fakeUsers.findUserByEmail.mockResolvedValue(user);
      (verifyPassword as jest.Mock).mockClear();
      const { service, succeeded, signIns } = setUp();
      const error = await service.signIn('ada@example.com', 'wrong', null).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({
        code: 'INVALID_CREDENTIALS',
        message: 'Invalid email or password.',
      });
      expect(verifyPassword).toHaveBeenCalledWith(
        'wrong',
        user === undefined ? 'scrypt$decoy' : 'scrypt$ada',
      );
      expect(succeeded).not.toHaveBeenCalled();
      expect(signIns.create).not.toHaveBeenCalled();
    }
  });

  it('asks a two-factor account for its code without counting a failure; a wrong code counts, and no session begins either way', async () => {
    fakeUsers.findUserByEmail.mockResolvedValue({
      id: 'u-ada',
      email: 'ada@example.com',
      name: 'Ada',
      password_hash: 'scrypt$ada',
      email_verified_at: null,
    });
    for (const refusal of [
      DomainError.of('TWO_FACTOR_REQUIRED'),
      new DomainError('INVALID_TWO_FACTOR_CODE', 'The code is not correct.'),
    ]) {
      const { service, succeeded, signIns, twoFactor, tx, limiter } = setUp();
      twoFactor.signInStep.mockRejectedValueOnce(refusal);
      await expect(
        service.signIn('ada@example.com', 'correct horse', '203.0.113.7', '000000'),
      ).rejects.toBe(refusal);
      expect(twoFactor.signInStep).toHaveBeenCalledWith(
        tx,
        { id: 'u-ada', name: 'Ada' },
        '000000',
        '203.0.113.7',
      );
      expect(succeeded).toHaveBeenCalledTimes(refusal.code === 'TWO_FACTOR_REQUIRED' ? 1 : 0);
      expect(signIns.create).not.toHaveBeenCalled();
      // The password alone proves nothing of the address: the second factor is still owed.
      expect(limiter.addressProven).not.toHaveBeenCalled();
    }
  });

  it("describes the sign-in session with its organisation's name and plan; 404 when the organisation is gone", async () => {
    const member = {
      id: 'u-ada',
      email: 'ada@example.com',
      name: 'Ada',
      roleId: 'r-1',
      roleName: 'Owner',
    };
    const permissions: Permission[] = ['interrupt.read'];
    const { service, organisations } = setUp();
    await expect(
      service.describeSignInSession(ORG, member, permissions, 'single_sign_on'),
    ).resolves.toEqual({
      member,
      organisation: { id: ORG, name: 'Acme', plan: 'pro' },
      permissions,
      signedInWith: 'single_sign_on',
    });
    (organisations.read as jest.Mock).mockResolvedValue(undefined);
    await expect(
      service.describeSignInSession(ORG, member, permissions, 'password'),
    ).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });
});
