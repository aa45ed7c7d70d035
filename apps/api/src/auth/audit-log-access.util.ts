import { DomainError, missingPermissionMessage } from '@interlock/domain';
import { assertNever, type ApiKeyPrincipal, type MemberPrincipal } from './principal';

/**
 * The audit log's read rules (SPEC §5 (D), §7), for a read that shows audit entries outside
 * `GET /api/audit-log` — an interrupt's `include=history`: a key needs the Pro plan (402
 * PLAN_REQUIRED), a member needs `auditLog.read` on any plan (403 MISSING_PERMISSION).
 */
export function assertMayReadAuditLog(caller: ApiKeyPrincipal | MemberPrincipal): void {
  switch (caller.kind) {
    case 'api_key':
      if (caller.plan !== 'pro') throw DomainError.of('PLAN_REQUIRED');
      return;
    case 'member':
      if (!caller.permissions.has('auditLog.read'))
        throw new DomainError('MISSING_PERMISSION', missingPermissionMessage('auditLog.read'));
      return;
    default:
      assertNever(caller);
  }
}
