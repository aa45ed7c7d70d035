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
      {
        label: 'Integrations',
        to: '/integrations/api-keys',
        anyOf: ['apiKey.read', 'webhook.manage'],
      },
      { label: 'Members', to: '/members', anyOf: ['member.manage'] },
      { label: 'Invitations', to: '/invitations', anyOf: ['member.invite'] },
      { label: 'Roles', to: '/roles', anyOf: ['role.manage'] },
      { label: 'Teams', to: '/teams', anyOf: ['team.manage'] },
      { label: 'Organisation & billing', to: '/organisation' },
      { label: 'Single sign-on', to: '/organisation/sso', anyOf: ['member.manage'] },
      { label: 'Settings', to: '/settings' },
    ],
  },
];

export function visibleItems(items: NavItem[], permissions: readonly Permission[]): NavItem[] {
  return items.filter(
    (item) => item.anyOf === undefined || item.anyOf.some((p) => permissions.includes(p)),
  );
}

/**
 * What each page needs, by address prefix (longest first): a member without any of these sees
 * a "no access" page instead, so no page offers an action its reader cannot take. The API
 * refuses them anyway; this keeps people from filling a form only to be told at submit.
 */
export const PAGE_PERMISSIONS: { prefix: string; anyOf: Permission[] }[] = [
  { prefix: '/integrations/webhooks', anyOf: ['webhook.manage'] },
  { prefix: '/integrations/api-keys', anyOf: ['apiKey.read', 'webhook.manage'] },
  { prefix: '/interrupts', anyOf: ['interrupt.read'] },
  ...NAV_SECTIONS.flatMap((s) => s.items).flatMap((item) =>
    item.anyOf === undefined ? [] : [{ prefix: item.to, anyOf: item.anyOf }],
  ),
];

/** The permissions a page needs (any one of them), or undefined when everyone may open it. */
export function pagePermissions(pathname: string): Permission[] | undefined {
  return PAGE_PERMISSIONS.find((p) => pathname === p.prefix || pathname.startsWith(`${p.prefix}/`))
    ?.anyOf;
}

const NAV_PATHS = NAV_SECTIONS.flatMap((s) => s.items).map((item) => item.to);

/**
 * The nav item a page is under: the longest item path that is the page's or a parent of it
 * (`/organisation/sso` is Single sign-on's, not Organisation & billing's); an interrupt's page is
 * the inbox's.
 */
export function activeNavPath(pathname: string): string | undefined {
  if (pathname.startsWith('/interrupts/')) return '/inbox';
  return NAV_PATHS.filter((to) => pathname === to || pathname.startsWith(`${to}/`)).sort(
    (a, b) => b.length - a.length,
  )[0];
}

/** Whether another nav item lives under this one's path (its link then matches its path alone). */
export function hasNestedNavItem(to: string): boolean {
  return NAV_PATHS.some((other) => other.startsWith(`${to}/`));
}
