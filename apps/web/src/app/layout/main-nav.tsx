import { NavLink, UnstyledButton } from '@mantine/core';
import type { Permission } from '@interlock/api-client';
import { NavLink as RouterNavLink } from 'react-router';
import { activeNavPath, hasNestedNavItem, NAV_SECTIONS, visibleItems } from './nav-items';

/** Mantine's own classes for a NavLink: the same look (its stylesheet, app.css's overrides). */
const LINK_CLASS = [
  'mantine-focus-auto',
  NavLink.classes.root,
  'mantine-NavLink-root',
  UnstyledButton.classes.root,
  'mantine-UnstyledButton-root',
].join(' ');
const BODY_CLASS = `${NavLink.classes.body} mantine-NavLink-body`;
const LABEL_CLASS = `${NavLink.classes.label} mantine-NavLink-label`;

/**
 * The main navigation: the sections and the pages the member may open, the page's own entry
 * marked. Plain links with Mantine's NavLink classes rather than NavLink components: the
 * navigation is drawn on every first load, and a dozen NavLinks were a dozen Box, UnstyledButton
 * and style resolutions each (tools:bench-web's profile of the inbox's cold load).
 */
export function MainNav({
  pathname,
  permissions,
  onNavigate,
}: {
  pathname: string;
  permissions: readonly Permission[];
  onNavigate: () => void;
}) {
  const activeTo = activeNavPath(pathname);
  return (
    <nav aria-label="Main navigation">
      {NAV_SECTIONS.map((section) => {
        const items = visibleItems(section.items, permissions);
        if (items.length === 0) return null;
        return (
          <div key={section.label} className="main-nav-section">
            <p className="main-nav-heading">{section.label}</p>
            {items.map((item) => (
              <RouterNavLink
                key={item.to}
                to={item.to}
                end={hasNestedNavItem(item.to)}
                className={LINK_CLASS}
                data-active={item.to === activeTo || undefined}
                onClick={onNavigate}
              >
                <div className={BODY_CLASS}>
                  <span className={LABEL_CLASS}>{item.label}</span>
                </div>
              </RouterNavLink>
            ))}
          </div>
        );
      })}
    </nav>
  );
}
