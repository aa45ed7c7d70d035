import type { ExecutionContext } from '@nestjs/common';
import { loadConfig } from '../../config/app-config';
import type { ApiKeyPrincipal, MemberPrincipal } from '../principal';
import { principalOf } from '../principal';
import type { SessionService } from '../session.service';
import type { ApiKeyAuthGuard } from '../strategies/api-key.strategy';
import { guardContext } from '../testing/guard-context';
import { AuthenticationGuard } from './authentication.guard';

const config = loadConfig({ PUBLIC_ORIGIN: 'https://interlock.example', ALLOWED_ORIGINS: 'https://dash.example' });
const keyPrincipal: ApiKeyPrincipal = { kind: 'api_key', organisationId: 'o', plan: 'free', apiKeyId: 'k', apiKeyName: 'n' };
const memberPrincipal: MemberPrincipal = {
  kind: 'member',
  organisationId: 'o',
  plan: 'free',
  memberId: 'm',
  memberName: 'Ada',
  sessionId: 's',
  permissions: new Set(),
};
const TOKEN = 'A'.repeat(43);

function setUp(options: { member?: MemberPrincipal } = {}) {
  const apiKeyGuard = {
    canActivate: jest.fn(async (context: ExecutionContext) => {
      (context.switchToHttp().getRequest() as { user?: unknown }).user = keyPrincipal;
      return true;
    }),
  };
  const sessions = {
    authenticate: jest.fn(async (token: string) => (token === TOKEN ? options.member : undefined)),
    clearCookie: jest.fn(),
  };
  const build = (reflector: ConstructorParameters<typeof AuthenticationGuard>[0]) =>
    new AuthenticationGuard(reflector, apiKeyGuard as unknown as ApiKeyAuthGuard, sessions as unknown as SessionService, config);
  return { apiKeyGuard, sessions, build };
}

describe('AuthenticationGuard', () => {
  it('classifies a machine route caller through the API-key strategy, never the cookie', async () => {
    const { apiKeyGuard, sessions, build } = setUp({ member: memberPrincipal });
    const { context, req, reflector } = guardContext({ principal: 'api_key' }, { headers: { cookie: `session=${TOKEN}` } });
    await expect(build(reflector).canActivate(context)).resolves.toBe(true);
    expect(apiKeyGuard.canActivate).toHaveBeenCalledTimes(1);
    expect(sessions.authenticate).not.toHaveBeenCalled();
    expect(principalOf(req)).toBe(keyPrincipal);
  });

  it('classifies a member route caller by the session cookie, never a key', async () => {
    const { apiKeyGuard, build } = setUp({ member: memberPrincipal });
    const { context, req, reflector } = guardContext({ principal: 'member' }, { headers: { cookie: `other=1; session=${TOKEN}` } });
    await expect(build(reflector).canActivate(context)).resolves.toBe(true);
    expect(apiKeyGuard.canActivate).not.toHaveBeenCalled();
    expect(principalOf(req)).toBe(memberPrincipal);
  });

  it.each([[{}], [{ cookie: 'session=unknown-token-value-xxxxxxxxxx' }], [{ cookie: 'session=<script>' }]])(
    'answers 401 "Sign-in required." without a valid session (%j)',
    async (headers) => {
      const { build } = setUp({ member: memberPrincipal });
      const { context, reflector } = guardContext({ principal: 'member' }, { headers });
      await expect(build(reflector).canActivate(context)).rejects.toMatchObject({
        code: 'SIGN_IN_REQUIRED',
        message: 'Sign-in required.',
      });
    },
  );

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
      const { context, req, reflector } = guardContext(shared, { headers: { 'x-api-key': 'k', cookie: `session=${TOKEN}` } });
      await expect(build(reflector).canActivate(context)).resolves.toBe(true);
      expect(apiKeyGuard.canActivate).toHaveBeenCalledTimes(1);
      expect(sessions.authenticate).not.toHaveBeenCalled();
      expect(principalOf(req)).toBe(keyPrincipal);
    });

    it('an empty x-api-key is still a key request (the strategy answers MISSING_API_KEY)', async () => {
      const { apiKeyGuard, sessions, build } = setUp({ member: memberPrincipal });
      const { context, reflector } = guardContext(shared, { headers: { 'x-api-key': '', cookie: `session=${TOKEN}` } });
      await build(reflector).canActivate(context);
      expect(apiKeyGuard.canActivate).toHaveBeenCalledTimes(1);
      expect(sessions.authenticate).not.toHaveBeenCalled();
    });

    it('without a key, the session cookie decides', async () => {
      const { apiKeyGuard, build } = setUp({ member: memberPrincipal });
      const { context, req, reflector } = guardContext(shared, { headers: { cookie: `session=${TOKEN}` } });
      await expect(build(reflector).canActivate(context)).resolves.toBe(true);
      expect(apiKeyGuard.canActivate).not.toHaveBeenCalled();
      expect(principalOf(req)).toBe(memberPrincipal);
    });

    it('a cookie that is not signed in answers 401 "Sign-in required."', async () => {
      const { apiKeyGuard, build } = setUp({ member: memberPrincipal });
      const { context, reflector } = guardContext(shared, { headers: { cookie: 'session=unknown-token-value-xxxxxxxxxx' } });
      await expect(build(reflector).canActivate(context)).rejects.toMatchObject({ code: 'SIGN_IN_REQUIRED' });
      expect(apiKeyGuard.canActivate).not.toHaveBeenCalled();
    });

    it('with neither credential it is a key request, so agents keep their exact 401', async () => {
      const { apiKeyGuard, sessions, build } = setUp({ member: memberPrincipal });
      const { context, reflector } = guardContext(shared, { headers: {} });
      await build(reflector).canActivate(context);
      expect(apiKeyGuard.canActivate).toHaveBeenCalledTimes(1);
      expect(sessions.authenticate).not.toHaveBeenCalled();
    });
  });

  it('leaves public routes anonymous', async () => {
    const { build } = setUp();
    const { context, req, reflector } = guardContext({ principal: 'public' }, { headers: { 'x-api-key': 'x' } });
    await expect(build(reflector).canActivate(context)).resolves.toBe(true);
    expect(principalOf(req)).toEqual({ kind: 'anonymous' });
  });
});
