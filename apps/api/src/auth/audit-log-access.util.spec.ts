import type { Permission } from '@interlock/domain';
import { assertMayReadAuditLog } from './audit-log-access.util';
import type { ApiKeyPrincipal, MemberPrincipal } from './principal';

const key = (plan: 'free' | 'pro'): ApiKeyPrincipal => ({
  kind: 'api_key',
  organisationId: 'o',
  plan,
  apiKeyId: 'k',
  apiKeyName: 'ci',
});
const member = (permissions: Permission[], plan: 'free' | 'pro' = 'free'): MemberPrincipal => ({
  kind: 'member',
  organisationId: 'o',
  plan,
  memberId: 'm',
  memberName: 'Ada',
  email: 'ada@example.test',
  roleId: 'r',
  roleName: 'Custom',
  signInSessionId: 's',
  signedInWith: 'password',
  permissions: new Set(permissions),
});

describe('assertMayReadAuditLog', () => {
  it('admits a Pro key and refuses a Free one with PLAN_REQUIRED', () => {
    expect(() => assertMayReadAuditLog(key('pro'))).not.toThrow();
    expect(() => assertMayReadAuditLog(key('free'))).toThrow(
      expect.objectContaining({
        code: 'PLAN_REQUIRED',
        message: 'The audit log API requires the Pro plan.',
      }),
    );
  });

  it('admits a member holding auditLog.read on any plan and refuses one without it', () => {
    expect(() => assertMayReadAuditLog(member(['interrupt.read', 'auditLog.read']))).not.toThrow();
    expect(() => assertMayReadAuditLog(member(['interrupt.read'], 'pro'))).toThrow(
      expect.objectContaining({
        code: 'MISSING_PERMISSION',
        message: 'Missing permission: auditLog.read.',
      }),
    );
  });
});
