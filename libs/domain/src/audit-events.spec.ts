import { AUDIT_CATEGORIES, TARGET_TYPES } from './audit';
import {
  AUDIT_EVENTS,
  describeDuration,
  isKnownAuditAction,
  KNOWN_AUDIT_ACTIONS,
  renderAuditSummary,
  type AuditEvent,
} from './audit-events';

const ada = { type: 'member' as const, id: 'u-ada', name: 'Ada Lovelace' };
const key = { type: 'api_key' as const, id: 'k-1', name: 'ci-runner' };

describe('the audit event catalogue', () => {
  it('gives every action the category its name starts with, and a known target type', () => {
    expect(KNOWN_AUDIT_ACTIONS.length).toBe(76);
    for (const action of KNOWN_AUDIT_ACTIONS) {
      const definition = AUDIT_EVENTS[action];
      expect(action.startsWith(`${definition.category}.`)).toBe(true);
      expect(AUDIT_CATEGORIES).toContain(definition.category);
      expect(TARGET_TYPES).toContain(definition.target);
    }
  });

  it('knows its actions and nothing else', () => {
    expect(isKnownAuditAction('api_key.created')).toBe(true);
    expect(isKnownAuditAction('api_key.exploded')).toBe(false);
    expect(isKnownAuditAction('toString')).toBe(false);
  });

  // The sentences the services wrote inline before the catalogue, kept word for word.
  it.each<[AuditEvent, string]>([
    [
      {
        action: 'api_key.created',
        actor: ada,
        target: { type: 'api_key', id: 'k', name: 'ci' },
        metadata: { expiry: 'never', start: 'ilk_ab', expiresAt: null },
      },
      'Key ci created by Ada Lovelace',
    ],
    [
      {
        action: 'api_key.renamed',
        actor: ada,
        target: { type: 'api_key', id: 'k', name: 'new' },
        metadata: { previousName: 'old', name: 'new' },
      },
      'Key old renamed to new by Ada Lovelace',
    ],
    [
      {
        action: 'billing.plan_changed',
        actor: ada,
        target: { type: 'organisation', id: 'o', name: 'Acme' },
        metadata: { from: 'free', to: 'pro' },
      },
      'Plan changed from Free to Pro by Ada Lovelace',
    ],
    [
      {
        action: 'interrupt.created',
        actor: key,
        target: { type: 'interrupt', id: 'i', name: 'Deploy' },
        metadata: { externalId: null, actionRequests: ['deploy'] },
      },
      'Interrupt Deploy opened by key ci-runner',
    ],
    [
      {
        action: 'interrupt.decided',
        actor: ada,
        target: { type: 'interrupt', id: 'i', name: 'Deploy' },
        metadata: { actionName: 'deploy', decision: 'edit', becameAnswered: true },
      },
      'Action deploy of interrupt Deploy approved with edits by Ada Lovelace',
    ],
    [
      {
        action: 'interrupt.assigned',
        actor: ada,
        target: { type: 'interrupt', id: 'i', name: 'Deploy' },
        metadata: {
          assigneeType: 'team',
          assigneeId: 't',
          assigneeName: 'Ops',
          previousAssigneeType: null,
          previousAssigneeId: null,
        },
      },
      'Interrupt Deploy assigned to team Ops by Ada Lovelace',
    ],
    [
      {
        action: 'interrupt.unassigned',
        actor: ada,
        target: { type: 'interrupt', id: 'i', name: 'Deploy' },
        metadata: {
          previousAssigneeType: 'member',
          previousAssigneeId: 'm',
          previousAssigneeName: 'Grace',
        },
      },
      'Interrupt Deploy unassigned from Grace by Ada Lovelace',
    ],
    [
      {
        action: 'member.invitation_deleted',
        actor: ada,
        target: { type: 'invitation', id: 'v', name: 'g@x.io' },
        metadata: {
          email: 'g@x.io',
          roleId: 'r',
          role: 'Admin',
          state: 'pending',
          reason: 'withdrawn',
        },
      },
      'Invitation of g@x.io as Admin withdrawn by Ada Lovelace',
    ],
    [
      {
        action: 'member.invitation_deleted',
        actor: ada,
        target: { type: 'invitation', id: 'v', name: 'g@x.io' },
        metadata: {
          email: 'g@x.io',
          roleId: 'r',
          role: 'Admin',
          state: 'expired',
          reason: 'role.deleted',
        },
      },
      'Invitation of g@x.io as Admin deleted with the role by Ada Lovelace',
    ],
    [
      {
        action: 'member.removed',
        actor: ada,
        target: { type: 'user', id: 'u-ada', name: 'Ada Lovelace' },
        metadata: { email: 'a@x.io', roleId: 'r', role: 'Owner' },
      },
      'Ada Lovelace left the organisation',
    ],
    [
      {
        action: 'member.removed',
        actor: ada,
        target: { type: 'user', id: 'u-g', name: 'Grace' },
        metadata: { email: 'g@x.io', roleId: 'r', role: 'Admin' },
      },
      'Grace removed by Ada Lovelace',
    ],
    [
      {
        action: 'member.password_changed',
        actor: ada,
        target: { type: 'user', id: 'u-ada', name: 'Ada Lovelace' },
        metadata: { via: 'change', sessionsEnded: 1 },
      },
      'Ada Lovelace changed their password',
    ],
    [
      {
        action: 'member.password_changed',
        actor: ada,
        target: { type: 'user', id: 'u-ada', name: 'Ada Lovelace' },
        metadata: { via: 'reset', sessionsEnded: 3 },
      },
      'Ada Lovelace reset their password with an emailed link',
    ],
    [
      {
        action: 'member.sessions_ended',
        actor: ada,
        target: { type: 'user', id: 'u-ada', name: 'Ada Lovelace' },
        metadata: { scope: 'others', count: 2 },
      },
      'Ada Lovelace signed out 2 other sessions',
    ],
    [
      {
        action: 'member.sessions_ended',
        actor: ada,
        target: { type: 'user', id: 'u-ada', name: 'Ada Lovelace' },
        metadata: { scope: 'one', count: 1 },
      },
      'Ada Lovelace ended one of their sign-in sessions',
    ],
    [
      {
        action: 'member.email_verified',
        actor: ada,
        target: { type: 'user', id: 'u-ada', name: 'Ada Lovelace' },
        metadata: { email: 'ada@example.com', via: 'verification_link' },
      },
      'Ada Lovelace verified their email address ada@example.com',
    ],
    [
      {
        action: 'member.email_changed',
        actor: ada,
        target: { type: 'user', id: 'u-ada', name: 'Ada Lovelace' },
        metadata: { from: 'ada@old.test', to: 'ada@new.test', via: 'link', sessionsEnded: 0 },
      },
      'Ada Lovelace changed their email address from ada@old.test to ada@new.test',
    ],
    [
      {
        action: 'member.email_changed',
        actor: ada,
        target: { type: 'user', id: 'u-ada', name: 'Ada Lovelace' },
        metadata: { from: 'ada@new.test', to: 'ada@old.test', via: 'undo', sessionsEnded: 2 },
      },
      'Ada Lovelace undid a change of their email address: ada@new.test is ada@old.test again',
    ],
    [
      {
        action: 'member.renamed',
        actor: ada,
        target: { type: 'user', id: 'u-ada', name: 'Ada King' },
        metadata: { from: 'Ada Lovelace', to: 'Ada King' },
      },
      'Ada Lovelace changed their name to Ada King',
    ],
    [
      {
        action: 'member.two_factor_enabled',
        actor: ada,
        target: { type: 'user', id: 'u-ada', name: 'Ada Lovelace' },
        metadata: { method: 'totp' },
      },
      'Ada Lovelace turned on two-factor sign-in',
    ],
    [
      {
        action: 'member.two_factor_disabled',
        actor: ada,
        target: { type: 'user', id: 'u-ada', name: 'Ada Lovelace' },
        metadata: { method: 'totp', via: 'recovery_code' },
      },
      'Ada Lovelace turned off two-factor sign-in with a recovery code',
    ],
    [
      {
        action: 'member.two_factor_disabled',
        actor: { type: 'system', id: null, name: 'Interlock' },
        target: { type: 'user', id: 'u-ada', name: 'Ada Lovelace' },
        metadata: { method: 'totp', via: 'operator' },
      },
      'Two-factor sign-in turned off for Ada Lovelace by an operator',
    ],
    [
      {
        action: 'member.recovery_code_used',
        actor: ada,
        target: { type: 'user', id: 'u-ada', name: 'Ada Lovelace' },
        metadata: { left: 9 },
      },
      'Ada Lovelace used a recovery code (9 left)',
    ],
    [
      {
        action: 'member.recovery_codes_regenerated',
        actor: ada,
        target: { type: 'user', id: 'u-ada', name: 'Ada Lovelace' },
        metadata: { count: 10 },
      },
      'Ada Lovelace made new recovery codes',
    ],
    [
      {
        action: 'member.role_changed',
        actor: ada,
        target: { type: 'user', id: 'u-g', name: 'Grace' },
        metadata: { fromRoleId: 'a', fromRole: 'Admin', toRoleId: 'b', toRole: 'Member' },
      },
      "Grace's role changed from Admin to Member by Ada Lovelace",
    ],
    [
      {
        action: 'role.updated',
        actor: ada,
        target: { type: 'role', id: 'r', name: 'Ops' },
        metadata: { previousName: 'Ops', name: 'Ops', added: [], removed: [], permissions: [] },
      },
      'Role Ops updated by Ada Lovelace',
    ],
    [
      {
        action: 'role.updated',
        actor: ada,
        target: { type: 'role', id: 'r', name: 'SRE' },
        metadata: { previousName: 'Ops', name: 'SRE', added: [], removed: [], permissions: [] },
      },
      'Role Ops renamed to SRE by Ada Lovelace',
    ],
    [
      {
        action: 'team.member_added',
        actor: ada,
        target: { type: 'team', id: 't', name: 'Ops' },
        metadata: { memberId: 'm', memberName: 'Grace' },
      },
      'Grace added to team Ops by Ada Lovelace',
    ],
    [
      {
        action: 'webhook.updated',
        actor: ada,
        target: { type: 'webhook', id: 'w', name: 'https://x.io/h' },
        metadata: { changes: { enabled: { from: true, to: false } } },
      },
      'Webhook https://x.io/h disabled by Ada Lovelace',
    ],
    [
      {
        action: 'webhook.updated',
        actor: ada,
        target: { type: 'webhook', id: 'w', name: 'https://x.io/h' },
        metadata: { changes: { url: { from: 'a', to: 'b' }, enabled: { from: false, to: true } } },
      },
      'Webhook https://x.io/h updated (url, enabled) by Ada Lovelace',
    ],
    [
      {
        action: 'webhook.disabled',
        actor: { type: 'system', id: null, name: 'Interlock' },
        target: { type: 'webhook', id: 'w', name: 'https://x.io/h' },
        metadata: { reason: 'failing', failingForMs: 5 * 86_400_000 },
      },
      'Webhook https://x.io/h disabled: every delivery failed for 5 days',
    ],
  ])('renders %j as its sentence', (event, sentence) => {
    expect(renderAuditSummary(event)).toBe(sentence);
  });

  it('describes durations for people', () => {
    expect(describeDuration(36 * 3_600_000)).toBe('1.5 days');
    expect(describeDuration(1_000)).toBe('1 second');
    expect(describeDuration(90_000)).toBe('1.5 minutes');
  });
});
