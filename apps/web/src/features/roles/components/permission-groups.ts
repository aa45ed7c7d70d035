import type { Permission } from '@interlock/api-client';

/**
 * Every permission, grouped, named and described for people (issue 31 §5; a spec checks the list
 * is complete). The internal name stays visible beside them, as the API's errors use it.
 */
export const PERMISSION_GROUPS: {
  label: string;
  permissions: { value: Permission; label: string; description: string }[];
}[] = [
  {
    label: 'Interrupts',
    permissions: [
      {
        value: 'interrupt.read',
        label: 'See the inbox and interrupts',
        description: 'Read the inbox and each interrupt, with its decisions and what argus did.',
      },
      {
        value: 'interrupt.decide',
        label: 'Decide interrupts',
        description: 'Approve, edit, reject or answer the actions agents ask about.',
      },
      {
        value: 'interrupt.assign',
        label: 'Assign interrupts',
        description: 'Hand an interrupt to a member or a team, and set its priority.',
      },
      {
        value: 'interrupt.escalate',
        label: 'Escalate interrupts',
        description: 'Escalate an interrupt that needs more attention.',
      },
    ],
  },
  {
    label: 'Sessions',
    permissions: [
      {
        value: 'session.read',
        label: 'Watch sessions (Live View)',
        description: 'Watch agents’ sessions as they run and read their messages.',
      },
      {
        value: 'session.disconnect',
        label: 'Disconnect sessions',
        description: 'End an agent’s session from the dashboard.',
      },
    ],
  },
  {
    label: 'API keys',
    permissions: [
      {
        value: 'apiKey.read',
        label: 'See API keys',
        description:
          'See the organisation’s API keys (their names and first characters, never a whole key).',
      },
      {
        value: 'apiKey.create',
        label: 'Create API keys',
        description: 'Create API keys for agents.',
      },
      {
        value: 'apiKey.update',
        label: 'Rename API keys',
        description: 'Rename API keys.',
      },
      {
        value: 'apiKey.delete',
        label: 'Revoke API keys',
        description: 'Revoke API keys: agents using one are refused at once.',
      },
    ],
  },
  {
    label: 'Organisation',
    permissions: [
      {
        value: 'member.invite',
        label: 'Invite members',
        description: 'Invite people to join the organisation.',
      },
      {
        value: 'member.manage',
        label: 'Manage members',
        description: 'Change members’ roles, remove members, and set up single sign-on.',
      },
      {
        value: 'role.manage',
        label: 'Manage roles',
        description: 'Create, change and delete custom roles.',
      },
      {
        value: 'team.manage',
        label: 'Manage teams',
        description: 'Create teams, choose their members, and set escalation policies.',
      },
      {
        value: 'billing.manage',
        label: 'Change the plan',
        description: 'Change the organisation’s plan.',
      },
      {
        value: 'webhook.manage',
        label: 'Manage webhooks',
        description: 'Add, change and remove webhooks.',
      },
    ],
  },
  {
    label: 'Audit log',
    permissions: [
      {
        value: 'auditLog.read',
        label: 'Read the audit log',
        description: 'Read the audit log: who did what, and when.',
      },
      {
        value: 'auditLog.export',
        label: 'Export the audit log (CSV)',
        description: 'Download the audit log as CSV.',
      },
    ],
  },
  {
    label: 'Classification (argus)',
    permissions: [
      {
        value: 'classification.read',
        label: 'See classification rules',
        description: 'See the rules argus applies, their figures and its suggestions.',
      },
      {
        value: 'classification.manage',
        label: 'Manage classification rules',
        description:
          'Create, change and remove argus’s rules, the external classifier and default deadlines: settings that let Interlock decide without a person.',
      },
    ],
  },
];

export const ALL_PERMISSIONS: Permission[] = PERMISSION_GROUPS.flatMap((g) =>
  g.permissions.map((p) => p.value),
);
