import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { guardContext } from '../testing/guard-context';
import { keyPrincipal, memberPrincipal, userPrincipal } from '../testing/principals';
import type { Principal } from '../principal';
import {
  GranterCaller,
  KeyCaller,
  KeyOrMemberCaller,
  MemberCaller,
  UserCaller,
} from './current-principal.decorator';

// What a handler's caller parameter receives, read through the factory Nest calls per request.
function resolve(decorator: () => ParameterDecorator, principal: Principal, ip?: string): unknown {
  class Probe {
    handler(@decorator() _caller: unknown): void {
      // the parameter is what is probed
    }
  }
  const args = Reflect.getMetadata(ROUTE_ARGS_METADATA, Probe, 'handler') as Record<
    string,
    { factory: (data: unknown, ctx: unknown) => unknown }
  >;
  const { context, req } = guardContext(undefined, { principal });
  (req as { ip?: string }).ip = ip;
  return Object.values(args)[0].factory(undefined, context);
}

describe('the caller decorators', () => {
  const ada = memberPrincipal({ organisationId: 'org-1', memberId: 'u-ada', memberName: 'Ada' });

  it('give a member route the organisation and actor from the credential, and the address', () => {
    expect(resolve(MemberCaller, ada, '203.0.113.7')).toEqual({
      organisationId: 'org-1',
      actor: { type: 'member', id: 'u-ada', name: 'Ada' },
      ip: '203.0.113.7',
    });
    expect(resolve(MemberCaller, ada)).toMatchObject({ ip: null });
  });

  it("add the member's permissions for a route that grants roles", () => {
    const granter = memberPrincipal({ permissions: new Set(['role.manage']) });
    const call = resolve(GranterCaller, granter) as { permissions: ReadonlySet<string> };
    expect([...call.permissions]).toEqual(['role.manage']);
    expect(call).toMatchObject({ organisationId: 'o', actor: { type: 'member', id: 'm' } });
  });

  it("give a key's route the key's organisation and its actor, and the address", () => {
    const key = keyPrincipal({
      organisationId: 'org-2',
      apiKeyId: 'k-7',
      apiKeyName: 'deploy-bot',
    });
    const call = {
      organisationId: 'org-2',
      actor: { type: 'api_key', id: 'k-7', name: 'deploy-bot' },
      ip: '198.51.100.4',
    };
    expect(resolve(KeyCaller, key, '198.51.100.4')).toEqual(call);
    expect(resolve(KeyOrMemberCaller, key, '198.51.100.4')).toEqual(call);
  });

  it('give a key-or-member route the member as a member route has it', () => {
    expect(resolve(KeyOrMemberCaller, ada, '203.0.113.7')).toEqual(
      resolve(MemberCaller, ada, '203.0.113.7'),
    );
  });

  it("give a signed-in person's route the person and the address", () => {
    const user = userPrincipal({ userId: 'u-ada' });
    expect(resolve(UserCaller, user, '203.0.113.9')).toEqual({ user, ip: '203.0.113.9' });
    expect(resolve(UserCaller, user)).toEqual({ user, ip: null });
  });

  it('refuse a route whose caller is not the one they name (a declaration error, not a request error)', () => {
    expect(() => resolve(MemberCaller, keyPrincipal())).toThrow(
      'MemberCaller used on a route without a member',
    );
    expect(() => resolve(GranterCaller, keyPrincipal())).toThrow(
      'GranterCaller used on a route without a member',
    );
    expect(() => resolve(KeyCaller, memberPrincipal())).toThrow(
      'KeyCaller used on a route without a key',
    );
    expect(() => resolve(KeyOrMemberCaller, userPrincipal())).toThrow(
      'KeyOrMemberCaller used on a route without a key or member',
    );
    expect(() => resolve(UserCaller, memberPrincipal())).toThrow(
      'UserCaller used on a route without a signed-in user',
    );
  });
});
