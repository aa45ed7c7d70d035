import { NAV_SECTIONS, activeNavPath, hasNestedNavItem, pagePermissions } from './nav-items';

describe('the navigation', () => {
  it('puts Single sign-on under Organisation, for members who manage members (issue 33 §4)', () => {
    const organisation = NAV_SECTIONS.find((s) => s.label === 'Organisation');
    expect(organisation?.items.find((i) => i.label === 'Single sign-on')).toEqual({
      label: 'Single sign-on',
      to: '/organisation/sso',
      anyOf: ['member.manage'],
    });
    expect(pagePermissions('/organisation/sso')).toEqual(['member.manage']);
    expect(pagePermissions('/organisation')).toBeUndefined();
    // The old address only redirects (router.tsx): it needs nothing of its own.
    expect(pagePermissions('/settings/sso')).toBeUndefined();
  });

  it('marks the most specific item a page is under, and the inbox for an interrupt', () => {
    expect(activeNavPath('/organisation/sso')).toBe('/organisation/sso');
    expect(activeNavPath('/organisation')).toBe('/organisation');
    expect(activeNavPath('/sessions/abc')).toBe('/sessions');
    expect(activeNavPath('/interrupts/abc')).toBe('/inbox');
    expect(activeNavPath('/settings/profile')).toBe('/settings');
    expect(activeNavPath('/nowhere')).toBeUndefined();
    expect(hasNestedNavItem('/organisation')).toBe(true);
    expect(hasNestedNavItem('/sessions')).toBe(false);
  });
});
