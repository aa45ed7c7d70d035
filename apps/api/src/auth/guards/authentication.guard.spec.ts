import { DomainError } from '@interlock/domain';
import type { HttpRequest } from '../../http/platform';
import { loadConfig } from '../../config/app-config';
import type { MemberPrincipal } from '../principal';
import { principalOf } from '../principal';
import { readSessionCookie, type SessionCookies } from '../session-cookie.util';
import type { MemberSignIn, SignInSessionService } from '../sign-in-session.service';
import type { ApiKeyAuthenticator } from '../api-key-authenticator';
import { guardContext } from '../testing/guard-context';
import {
  keyPrincipal as testKeyPrincipal,
  memberPrincipal as testMemberPrincipal,
  userPrincipal as testUserPrincipal,
} from '../testing/principals';
import { AuthenticationGuard } from './authentication.guard';

const config = loadConfig({
  PUBLIC_ORIGIN: 'https://interlock.example',
  ALLOWED_ORIGINS: 'https://dash.example',
});
const keyPrincipal = testKeyPrincipal();
const memberPrincipal = testMemberPrincipal();
const userPrincipal = testUserPrincipal();
const TOKEN = 'A'.repeat(43);
const ORG_A = '0a0a0a0a-0000-4000-8000-00000000000a';
const ORG_B = '0b0b0b0b-0000-4000-8000-00000000000b';

/**
 * A signed-in person (TOKEN) who is a member of `memberOf`: the fake answers as the service's
 * one query does — the organisation asked for, or the only one when none is asked for.
 */
function signInOf(memberOf: string[]) {
  return async (
    token: string,
    organisationId: string | undefined,
  ): Promise<MemberSignIn | undefined> => {
    if (token !== TOKEN) return undefined;
    const matching =
      organisationId === undefined ? memberOf : memberOf.filter((o) => o === organisationId);
    if (matching.length === 0)
      return {
        outcome: organisationId === undefined ? 'no_organisation' : 'not_member',
        user: userPrincipal,
      };
    if (matching.length > 1) return { outcome: 'several', user: userPrincipal };
    return { outcome: 'member', member: { ...memberPrincipal, organisationId: matching[0] } };
  };
}

function setUp(options: { member?: MemberPrincipal; memberOf?: string[] } = {}) {
  const apiKeyGuard = {
    authenticate: jest.fn<ReturnType<ApiKeyAuthenticator['authenticate']>, []>(
      async () => keyPrincipal,
    ),
  };
  const memberOf = options.memberOf ?? (options.member ? [options.member.organisationId] : []);
  const sessions = {
    authenticateMember: jest.fn(
      async (
        token: string,
        organisationId: string | undefined,
      ): Promise<MemberSignIn | undefined> => {
        const signIn = await signInOf(memberOf)(token, organisationId);
        return signIn?.outcome === 'member' && options.member && organisationId === undefined
          ? { outcome: 'member', member: options.member }
          : signIn;
      },
    ),
    authenticateUser: jest.fn(async (token: string) =>
      token === TOKEN ? userPrincipal : undefined,
    ),
  };
  const cookies = {
    clear: jest.fn(),
    set: jest.fn(),
    read: (req: HttpRequest) => readSessionCookie(req, 'session'),
  };
  const build = (reflector: ConstructorParameters<typeof AuthenticationGuard>[0]) =>
    new AuthenticationGuard(
      reflector,
      apiKeyGuard as unknown as ApiKeyAuthenticator,
      sessions as unknown as SignInSessionService,
      cookies as unknown as SessionCookies,
      config,
    );
  return { apiKeyGuard, sessions, build };
}

describe('AuthenticationGuard', () => {
  it('classifies a machine route caller through the API-key strategy, never the cookie', async () => {
    const { apiKeyGuard, sessions, build } = setUp({ member: memberPrincipal });
    const { context, req, reflector } = guardContext(
      { principal: 'api_key' },
      { headers: { cookie: `session=${TOKEN}` } },
    );
    await expect(build(reflector).canActivate(context)).resolves.toBe(true);
    expect(apiKeyGuard.authenticate).toHaveBeenCalledTimes(1);
    expect(sessions.authenticateMember).not.toHaveBeenCalled();
    expect(principalOf(req)).toBe(keyPrincipal);
  });

  it('admits a key the authenticator answers at once (cached) without a promise, and lets its refusal through at once', () => {
    const { apiKeyGuard, build } = setUp();
    const { context, req, reflector } = guardContext({ principal: 'api_key' });
    const guard = build(reflector);
    apiKeyGuard.authenticate.mockImplementationOnce(() => keyPrincipal);
    expect(guard.canActivate(context)).toBe(true);
    expect(principalOf(req)).toBe(keyPrincipal);

    const refusal = DomainError.of('INVALID_API_KEY');
    apiKeyGuard.authenticate.mockImplementationOnce(() => {
      throw refusal;
    });
    const refused = guardContext({ principal: 'api_key' });
    expect(() => build(refused.reflector).canActivate(refused.context)).toThrow(refusal);
  });

  it('classifies a member route caller by the session cookie, never a key', async () => {
    const { apiKeyGuard, build } = setUp({ member: memberPrincipal });
    const { context, req, reflector } = guardContext(
      { principal: 'member' },
      { headers: { cookie: `other=1; session=${TOKEN}` } },
    );
    await expect(build(reflector).canActivate(context)).resolves.toBe(true);
    expect(apiKeyGuard.authenticate).not.toHaveBeenCalled();
    expect(principalOf(req)).toBe(memberPrincipal);
  });

  it.each([
    [{}],
    [{ cookie: 'session=unknown-token-value-xxxxxxxxxx' }],
    [{ cookie: 'session=<script>' }],
  ])('answers 401 "Sign-in required." without a valid session (%j)', async (headers) => {
    const { build } = setUp({ member: memberPrincipal });
    const { context, reflector } = guardContext({ principal: 'member' }, { headers });
    await expect(build(reflector).canActivate(context)).rejects.toMatchObject({
      code: 'SIGN_IN_REQUIRED',
      message: 'Sign-in required.',
    });
  });

  it.each([
    ['POST', { origin: 'https://evil.example' }, true],
    ['DELETE', { 'sec-fetch-site': 'cross-site' }, true],
    ['POST', { origin: 'https://interlock.example' }, false],
    ['PATCH', { origin: 'https://dash.example', 'sec-fetch-site': 'same-site' }, false],
    ['POST', {}, false],
    ['GET', { origin: 'https://evil.example' }, false],
  ])('CSRF: %s with %j refused=%s', async (method, headers, refused) => {
    const { build } = setUp({ member: memberPrincipal });
    const { context, reflector } = guardContext(
      { principal: 'member' },
      { method, headers: { ...headers, cookie: `session=${TOKEN}` } },
    );
    const outcome = build(reflector).canActivate(context);
    if (refused) await expect(outcome).rejects.toMatchObject({ code: 'CSRF_REJECTED' });
    else await expect(outcome).resolves.toBe(true);
  });

  describe('on a read shared by keys and members', () => {
    const shared = { principal: 'api_key_or_member', permission: 'interrupt.read' } as const;

    it('a request carrying x-api-key is a key request, whatever cookie it carries', async () => {
      const { apiKeyGuard, sessions, build } = setUp({ member: memberPrincipal });
      const { context, req, reflector } = guardContext(shared, {
        headers: { 'x-api-key': 'k', cookie: `session=${TOKEN}` },
      });
      await expect(build(reflector).canActivate(context)).resolves.toBe(true);
      expect(apiKeyGuard.authenticate).toHaveBeenCalledTimes(1);
      expect(sessions.authenticateMember).not.toHaveBeenCalled();
      expect(principalOf(req)).toBe(keyPrincipal);
    });

    it('an empty x-api-key is still a key request (the strategy answers MISSING_API_KEY)', async () => {
      const { apiKeyGuard, sessions, build } = setUp({ member: memberPrincipal });
      const { context, reflector } = guardContext(shared, {
        headers: { 'x-api-key': '', cookie: `session=${TOKEN}` },
      });
      await build(reflector).canActivate(context);
      expect(apiKeyGuard.authenticate).toHaveBeenCalledTimes(1);
      expect(sessions.authenticateMember).not.toHaveBeenCalled();
    });

    it('without a key, the session cookie decides', async () => {
      const { apiKeyGuard, build } = setUp({ member: memberPrincipal });
      const { context, req, reflector } = guardContext(shared, {
        headers: { cookie: `session=${TOKEN}` },
      });
      await expect(build(reflector).canActivate(context)).resolves.toBe(true);
      expect(apiKeyGuard.authenticate).not.toHaveBeenCalled();
      expect(principalOf(req)).toBe(memberPrincipal);
    });

    it('a cookie that is not signed in answers 401 "Sign-in required."', async () => {
      const { apiKeyGuard, build } = setUp({ member: memberPrincipal });
      const { context, reflector } = guardContext(shared, {
        headers: { cookie: 'session=unknown-token-value-xxxxxxxxxx' },
      });
      await expect(build(reflector).canActivate(context)).rejects.toMatchObject({
        code: 'SIGN_IN_REQUIRED',
      });
      expect(apiKeyGuard.authenticate).not.toHaveBeenCalled();
    });

    it('with neither credential it is a key request, so agents keep their exact 401', async () => {
      const { apiKeyGuard, sessions, build } = setUp({ member: memberPrincipal });
      const { context, reflector } = guardContext(shared, { headers: {} });
      await build(reflector).canActivate(context);
      expect(apiKeyGuard.authenticate).toHaveBeenCalledTimes(1);
      expect(sessions.authenticateMember).not.toHaveBeenCalled();
    });
  });

  describe('the organisation a member route acts for', () => {
    const route = { principal: 'member' } as const;
    const cookie = `session=${TOKEN}`;

    it("is the one x-organisation-id names, among the person's memberships", async () => {
      const { sessions, build } = setUp({ memberOf: [ORG_A, ORG_B] });
      for (const org of [ORG_A, ORG_B]) {
        const { context, req, reflector } = guardContext(route, {
          headers: { cookie, 'x-organisation-id': org },
        });
        await expect(build(reflector).canActivate(context)).resolves.toBe(true);
        expect(principalOf(req)).toMatchObject({ kind: 'member', organisationId: org });
      }
      expect(sessions.authenticateMember).toHaveBeenCalledWith(TOKEN, ORG_B, {
        ip: null,
        userAgent: null,
      });
    });

    it('answers 404 "Not found." for an organisation the person is no member of (no existence oracle)', async () => {
      const { build } = setUp({ memberOf: [ORG_A] });
      const { context, reflector } = guardContext(route, {
        headers: { cookie, 'x-organisation-id': ORG_B },
      });
      await expect(build(reflector).canActivate(context)).rejects.toMatchObject({
        code: 'NOT_FOUND',
        message: 'Not found.',
      });
    });

    it('is the only one when the request names none; with several it must be named (400); with none, 403', async () => {
      const one = setUp({ memberOf: [ORG_A] });
      const a = guardContext(route, { headers: { cookie } });
      await expect(one.build(a.reflector).canActivate(a.context)).resolves.toBe(true);
      expect(principalOf(a.req)).toMatchObject({ organisationId: ORG_A });

      const several = setUp({ memberOf: [ORG_A, ORG_B] });
      const b = guardContext(route, { headers: { cookie } });
      await expect(several.build(b.reflector).canActivate(b.context)).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        message: 'x-organisation-id header is required: you are a member of several organisations.',
      });

      const none = setUp({ memberOf: [] });
      const c = guardContext(route, { headers: { cookie } });
      await expect(none.build(c.reflector).canActivate(c.context)).rejects.toMatchObject({
        code: 'FORBIDDEN',
        message: 'You are not a member of any organisation.',
      });
    });

    it('refuses a malformed x-organisation-id with 400, but a signed-out request hears 401 first', async () => {
      const { build } = setUp({ memberOf: [ORG_A] });
      const bad = guardContext(route, { headers: { cookie, 'x-organisation-id': 'acme' } });
      await expect(build(bad.reflector).canActivate(bad.context)).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        message: 'x-organisation-id header must be a UUID.',
      });
      const signedOut = guardContext(route, {
        headers: { cookie: 'session=unknown-token-value-xxxxxxxxxx', 'x-organisation-id': 'acme' },
      });
      await expect(build(signedOut.reflector).canActivate(signedOut.context)).rejects.toMatchObject(
        { code: 'SIGN_IN_REQUIRED' },
      );
    });

    it('takes the organisationId query parameter only on routes read with EventSource, and only if it agrees with the header', async () => {
      const { build } = setUp({ memberOf: [ORG_A, ORG_B] });
      const ignored = guardContext(route, {
        headers: { cookie },
        query: { organisationId: ORG_B },
      });
      await expect(build(ignored.reflector).canActivate(ignored.context)).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
      });

      const stream = guardContext(route, {
        headers: { cookie },
        query: { organisationId: ORG_B },
        organisationInQuery: true,
      });
      await expect(build(stream.reflector).canActivate(stream.context)).resolves.toBe(true);
      expect(principalOf(stream.req)).toMatchObject({ organisationId: ORG_B });

      const disagree = guardContext(route, {
        headers: { cookie, 'x-organisation-id': ORG_A },
        query: { organisationId: ORG_B },
        organisationInQuery: true,
      });
      await expect(build(disagree.reflector).canActivate(disagree.context)).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        message: 'x-organisation-id and organisationId name different organisations.',
      });
    });

    it('CSRF comes before the organisation: a cross-site POST is 403 whatever it names', async () => {
      const { build } = setUp({ memberOf: [ORG_A] });
      const { context, reflector } = guardContext(route, {
        method: 'POST',
        headers: { cookie, origin: 'https://evil.example', 'x-organisation-id': ORG_B },
      });
      await expect(build(reflector).canActivate(context)).rejects.toMatchObject({
        code: 'CSRF_REJECTED',
      });
    });
  });

  describe('a user route (acts for no organisation)', () => {
    it('classifies the signed-in person, whatever x-organisation-id says', async () => {
      const { sessions, build } = setUp({ memberOf: [] });
      const { context, req, reflector } = guardContext(
        { principal: 'user' },
        { headers: { cookie: `session=${TOKEN}`, 'x-organisation-id': 'x' } },
      );
      await expect(build(reflector).canActivate(context)).resolves.toBe(true);
      expect(principalOf(req)).toBe(userPrincipal);
      expect(sessions.authenticateMember).not.toHaveBeenCalled();
    });

    it('answers 401 without a valid session, and refuses cross-site writes', async () => {
      const { build } = setUp();
      const out = guardContext({ principal: 'user' }, { headers: {} });
      await expect(build(out.reflector).canActivate(out.context)).rejects.toMatchObject({
        code: 'SIGN_IN_REQUIRED',
      });
      const csrf = guardContext(
        { principal: 'user' },
        { method: 'POST', headers: { cookie: `session=${TOKEN}`, 'sec-fetch-site': 'cross-site' } },
      );
      await expect(build(csrf.reflector).canActivate(csrf.context)).rejects.toMatchObject({
        code: 'CSRF_REJECTED',
      });
    });
  });

  it('leaves public routes anonymous', async () => {
    const { build } = setUp();
    const { context, req, reflector } = guardContext(
      { principal: 'public' },
      { headers: { 'x-api-key': 'x' } },
    );
    expect(await build(reflector).canActivate(context)).toBe(true);
    expect(principalOf(req)).toEqual({ kind: 'anonymous' });
  });
});
