import type { Permission } from '@interlock/api-client';

/** Every permission, grouped and described for people (a spec checks the list is complete). */
export const PERMISSION_GROUPS: {
  label: string;
  permissions: { value: Permission; label: string }[];
}[] = [
  {
    label: 'Interrupts',
    permissions: [
      { value: 'interrupt.read', label: 'See the inbox and interrupts' },
      { value: 'interrupt.decide', label: 'Decide interrupts' },
      { value: 'interrupt.assign', label: 'Assign interrupts' },
      { value: 'interrupt.escalate', label: 'Escalate interrupts' },
    ],
  },
  {
    label: 'Sessions',
    permissions: [
      { value: 'session.read', label: 'Watch sessions (Live View)' },
      { value: 'session.disconnect', label: 'Disconnect sessions' },
    ],
  },
  {
    label: 'API keys',
    permissions: [
      { value: 'apiKey.read', label: 'See API keys' },
      { value: 'apiKey.create', label: 'Create API keys' },
      { value: 'apiKey.update', label: 'Rename API keys' },
      { value: 'apiKey.delete', label: 'Revoke API keys' },
    ],
  },
  {
    label: 'Organisation',
    permissions: [
      { value: 'member.invite', label: 'Invite members' },
      { value: 'member.manage', label: 'Manage members' },
      { value: 'role.manage', label: 'Manage roles' },
      { value: 'team.manage', label: 'Manage teams' },
      { value: 'billing.manage', label: 'Change the plan' },
      { value: 'webhook.manage', label: 'Manage webhooks' },
    ],
  },
  {
    label: 'Audit log',
    permissions: [
      { value: 'auditLog.read', label: 'Read the audit log' },
      { value: 'auditLog.export', label: 'Export the audit log (CSV)' },
    ],
  },
  {
    label: 'Classification (argus)',
    permissions: [
      { value: 'classification.read', label: 'See classification rules' },
      { value: 'classification.manage', label: 'Manage classification rules' },
    ],
  },
];

export const ALL_PERMISSIONS: Permission[] = PERMISSION_GROUPS.flatMap((g) =>
  g.permissions.map((p) => p.value),
);
