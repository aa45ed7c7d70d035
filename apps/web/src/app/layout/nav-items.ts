import type { Permission } from '@interlock/api-client';

export interface NavItem {
  label: string;
  to: string;
  /** Shown only to members holding one of these (none: everyone). */
  anyOf?: Permission[];
}

export const NAV_SECTIONS: { label: string; items: NavItem[] }[] = [
  {
    label: 'Review',
    items: [
      { label: 'Inbox', to: '/inbox', anyOf: ['interrupt.read'] },
      { label: 'Sessions', to: '/sessions', anyOf: ['session.read'] },
      { label: 'Audit log', to: '/audit-log', anyOf: ['auditLog.read'] },
    ],
  },
  {
    label: 'Organisation',
    items: [
      { label: 'Integrations', to: '/integrations/api-keys', anyOf: ['apiKey.read', 'webhook.manage'] },
      { label: 'Members', to: '/members', anyOf: ['member.manage'] },
      { label: 'Invitations', to: '/invitations', anyOf: ['member.invite'] },
      { label: 'Roles', to: '/roles', anyOf: ['role.manage'] },
      { label: 'Teams', to: '/teams', anyOf: ['team.manage'] },
      { label: 'Organisation & billing', to: '/organisation' },
      { label: 'Settings', to: '/settings' },
    ],
  },
];

export function visibleItems(items: NavItem[], permissions: readonly Permission[]): NavItem[] {
  return items.filter((item) => item.anyOf === undefined || item.anyOf.some((p) => permissions.includes(p)));
}
