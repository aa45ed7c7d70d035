import type { Permission } from '@interlock/domain';
import { guardContext } from '../testing/guard-context';
import { memberPrincipal } from '../testing/principals';
import { PermissionGuard } from './permission.guard';

const member = (permissions: Permission[]) =>
  memberPrincipal({ permissions: new Set(permissions) });

describe('PermissionGuard', () => {
  it('answers 403 "Missing permission: <p>." to a member without it', () => {
    const { context, reflector } = guardContext(
      { principal: 'member', permission: 'apiKey.create' },
      { principal: member(['apiKey.read']) },
    );
    expect(() => new PermissionGuard(reflector).canActivate(context)).toThrow(
      expect.objectContaining({
        code: 'MISSING_PERMISSION',
        message: 'Missing permission: apiKey.create.',
      }),
    );
  });

  it('admits a member holding it', () => {
    const { context, reflector } = guardContext(
      { principal: 'member', permission: 'apiKey.create' },
      { principal: member(['apiKey.create']) },
    );
    expect(new PermissionGuard(reflector).canActivate(context)).toBe(true);
  });

  describe('with any one of several permissions', () => {
    const either = {
      principal: 'member',
      permission: { anyOf: ['member.invite', 'role.manage'] },
    } as const;

    it.each([
      [['member.invite']],
      [['role.manage']],
      [['role.manage', 'member.invite']],
    ] as Permission[][][])('admits a member holding %j', (held) => {
      const { context, reflector } = guardContext(either, { principal: member(held) });
      expect(new PermissionGuard(reflector).canActivate(context)).toBe(true);
    });

    it('answers 403 naming every one of them to a member holding none', () => {
      const { context, reflector } = guardContext(either, {
        principal: member(['member.manage', 'interrupt.read']),
      });
      expect(() => new PermissionGuard(reflector).canActivate(context)).toThrow(
        expect.objectContaining({
          code: 'MISSING_PERMISSION',
          message: 'Missing permission: member.invite or role.manage.',
        }),
      );
    });
  });

  it('admits any member on a route without a permission', () => {
    const { context, reflector } = guardContext({ principal: 'member' }, { principal: member([]) });
    expect(new PermissionGuard(reflector).canActivate(context)).toBe(true);
  });

  it('refuses a permission route reached without a member', () => {
    const { context, reflector } = guardContext({ principal: 'member', permission: 'apiKey.read' });
    expect(new PermissionGuard(reflector).canActivate(context)).toBe(false);
  });

  describe('on a read shared by keys and members', () => {
    const shared = { principal: 'api_key_or_member', permission: 'interrupt.read' } as const;

    it('answers 403 "Missing permission: interrupt.read." to a member without it', () => {
      const { context, reflector } = guardContext(shared, {
        principal: member(['interrupt.decide']),
      });
      expect(() => new PermissionGuard(reflector).canActivate(context)).toThrow(
        expect.objectContaining({
          code: 'MISSING_PERMISSION',
          message: 'Missing permission: interrupt.read.',
        }),
      );
    });

    it('admits a member holding it, and any key (keys carry no permissions)', () => {
      const held = guardContext(shared, { principal: member(['interrupt.read']) });
      expect(new PermissionGuard(held.reflector).canActivate(held.context)).toBe(true);
      const key = guardContext(shared, {
        principal: {
          kind: 'api_key',
          organisationId: 'o',
          plan: 'free',
          apiKeyId: 'k',
          apiKeyName: 'n',
        },
      });
      expect(new PermissionGuard(key.reflector).canActivate(key.context)).toBe(true);
    });

    it('refuses a caller that is neither', () => {
      const { context, reflector } = guardContext(shared);
      expect(new PermissionGuard(reflector).canActivate(context)).toBe(false);
    });
  });
});
