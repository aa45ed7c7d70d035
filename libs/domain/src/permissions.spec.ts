import {
  BUILT_IN_ROLES,
  PERMISSIONS,
  hasPermission,
  isPermission,
  type Permission,
} from './permissions';

const sorted = (permissions: readonly string[]): string[] => [...permissions].sort();

describe('PERMISSIONS', () => {
  it('lists every permission of SPEC §6 exactly once', () => {
    expect(sorted(PERMISSIONS)).toEqual(
      sorted([
        'apiKey.create',
        'apiKey.read',
        'apiKey.update',
        'apiKey.delete',
        'interrupt.decide',
        'interrupt.assign',
        'interrupt.escalate',
        'interrupt.read',
        'session.read',
        'session.disconnect',
        'webhook.manage',
        'billing.manage',
        'member.invite',
        'member.manage',
        'role.manage',
        'team.manage',
        'auditLog.read',
        'auditLog.export',
        'classification.read',
        'classification.manage',
      ]),
    );
    expect(new Set(PERMISSIONS).size).toBe(PERMISSIONS.length);
  });
});

describe('isPermission', () => {
  it('accepts every listed permission', () => {
    for (const p of PERMISSIONS) expect(isPermission(p)).toBe(true);
  });

  it.each([
    'apiKey.*',
    'apikey.read',
    'APIKEY.READ',
    'apiKey.read ',
    'owner',
    '',
    'toString',
    '__proto__',
    undefined,
    null,
    1,
    ['apiKey.read'],
    { p: 'apiKey.read' },
  ])('refuses %p', (x) => {
    expect(isPermission(x)).toBe(false);
  });
});

describe('hasPermission', () => {
  it('is membership', () => {
    const held: Permission[] = ['apiKey.read', 'session.read'];
    expect(hasPermission(held, 'apiKey.read')).toBe(true);
    expect(hasPermission(held, 'apiKey.create')).toBe(false);
    expect(hasPermission([], 'apiKey.read')).toBe(false);
  });
});

describe('BUILT_IN_ROLES', () => {
  it('are Owner, Developer and Manager with stable keys', () => {
    expect(Object.keys(BUILT_IN_ROLES).sort()).toEqual(['developer', 'manager', 'owner']);
    expect(BUILT_IN_ROLES.owner).toMatchObject({ key: 'owner', name: 'Owner' });
    expect(BUILT_IN_ROLES.developer).toMatchObject({ key: 'developer', name: 'Developer' });
    expect(BUILT_IN_ROLES.manager).toMatchObject({ key: 'manager', name: 'Manager' });
  });

  it('gives Owner every permission', () => {
    expect(sorted(BUILT_IN_ROLES.owner.permissions)).toEqual(
      sorted([
        'apiKey.create',
        'apiKey.read',
        'apiKey.update',
        'apiKey.delete',
        'interrupt.decide',
        'interrupt.assign',
        'interrupt.escalate',
        'interrupt.read',
        'session.read',
        'session.disconnect',
        'webhook.manage',
        'billing.manage',
        'member.invite',
        'member.manage',
        'role.manage',
        'team.manage',
        'auditLog.read',
        'auditLog.export',
        'classification.read',
        'classification.manage',
      ]),
    );
  });

  it('gives Developer apiKey.*, interrupt.*, session.*, webhook.manage, auditLog.* and classification.*', () => {
    expect(sorted(BUILT_IN_ROLES.developer.permissions)).toEqual(
      sorted([
        'apiKey.create',
        'apiKey.read',
        'apiKey.update',
        'apiKey.delete',
        'interrupt.decide',
        'interrupt.assign',
        'interrupt.escalate',
        'interrupt.read',
        'session.read',
        'session.disconnect',
        'webhook.manage',
        'auditLog.read',
        'auditLog.export',
        'classification.read',
        'classification.manage',
      ]),
    );
  });

  it('gives Manager apiKey.read, interrupt.*, session.read, member.invite, auditLog.read, classification.read', () => {
    expect(sorted(BUILT_IN_ROLES.manager.permissions)).toEqual(
      sorted([
        'apiKey.read',
        'interrupt.decide',
        'interrupt.assign',
        'interrupt.escalate',
        'interrupt.read',
        'session.read',
        'member.invite',
        'auditLog.read',
        'classification.read',
      ]),
    );
  });

  it('hold the API key permissions of SPEC §2', () => {
    const apiKeyPermissions: Permission[] = [
      'apiKey.create',
      'apiKey.read',
      'apiKey.update',
      'apiKey.delete',
    ];
    for (const p of apiKeyPermissions) {
      expect(hasPermission(BUILT_IN_ROLES.owner.permissions, p)).toBe(true);
      expect(hasPermission(BUILT_IN_ROLES.developer.permissions, p)).toBe(true);
      expect(hasPermission(BUILT_IN_ROLES.manager.permissions, p)).toBe(p === 'apiKey.read');
    }
  });

  it('list no permission twice, all in PERMISSIONS order', () => {
    for (const role of Object.values(BUILT_IN_ROLES)) {
      expect(role.permissions).toEqual(PERMISSIONS.filter((p) => role.permissions.includes(p)));
    }
  });

  it('cannot be widened at run time', () => {
    const manager = BUILT_IN_ROLES.manager;
    expect(() => (manager.permissions as Permission[]).push('billing.manage')).toThrow(TypeError);
    expect(() => {
      (BUILT_IN_ROLES as Record<string, unknown>).manager = BUILT_IN_ROLES.owner;
    }).toThrow(TypeError);
    expect(hasPermission(BUILT_IN_ROLES.manager.permissions, 'billing.manage')).toBe(false);
  });
});
