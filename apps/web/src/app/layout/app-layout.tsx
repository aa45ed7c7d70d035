import { AppShell, Badge, Burger, Group, Menu, NavLink, ScrollArea, Stack, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Suspense } from 'react';
import { Navigate, NavLink as RouterNavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { useSignOut } from '../../features/auth/api/auth.queries';
import { CenteredLoader } from '../../shared/components/centered-loader';
import { QueryError } from '../../shared/components/query-error';
import { useSession } from '../../shared/session/session.queries';
import { notifyError } from '../../shared/utils/notify';
import { LiveEvents } from '../live-events';
import { Logo } from './logo';
import { NAV_SECTIONS, visibleItems } from './nav-items';

/** The signed-in frame: navigation by permission, the organisation, the member's menu. */
export function AppLayout() {
  const session = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const [opened, { toggle, close }] = useDisclosure();
  const signOut = useSignOut();

  if (session.isPending) return <CenteredLoader label="Loading your organisation" />;
  if (session.isError) return <QueryError error={session.error} onRetry={() => void session.refetch()} />;
  if (session.data === null) {
    const next = `${location.pathname}${location.search}`;
    return <Navigate to={next === '/' ? '/sign-in' : `/sign-in?next=${encodeURIComponent(next)}`} replace />;
  }
  const { member, organisation, permissions } = session.data;

  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="lg">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between">
          <Group gap="sm">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
            <Logo />
            <Text fw={600} size="sm" visibleFrom="xs">
              {organisation.name}
            </Text>
            <Badge variant="light" color={organisation.plan === 'pro' ? 'violet' : 'gray'} aria-label={`Plan: ${organisation.plan}`}>
              {organisation.plan === 'pro' ? 'Pro' : 'Free'}
            </Badge>
          </Group>
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <UnstyledButton aria-label={`Account: ${member.name}`} px="xs" py={4}>
                <Stack gap={0} align="flex-end">
                  <Text size="sm" fw={500}>
                    {member.name}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {member.email}
                  </Text>
                </Stack>
              </UnstyledButton>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item onClick={() => void navigate('/settings')}>Settings</Menu.Item>
              <Menu.Item
                color="red"
                onClick={() =>
                  signOut.mutate(undefined, {
                    onSuccess: () => void navigate('/sign-in', { replace: true }),
                    onError: (error) => notifyError(error, 'Could not sign out'),
                  })
                }
              >
                Sign out
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm" aria-label="Main">
        <ScrollArea>
          <nav aria-label="Main navigation">
            {NAV_SECTIONS.map((section) => {
              const items = visibleItems(section.items, permissions);
              if (items.length === 0) return null;
              return (
                <Stack key={section.label} gap={2} mb="md">
                  <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" mb={4}>
                    {section.label}
                  </Text>
                  {items.map((item) => (
                    <NavLink
                      key={item.to}
                      component={RouterNavLink}
                      to={item.to}
                      label={item.label}
                      onClick={close}
                      active={location.pathname === item.to || location.pathname.startsWith(`${item.to}/`) || (item.to === '/inbox' && location.pathname.startsWith('/interrupts/'))}
                    />
                  ))}
                </Stack>
              );
            })}
          </nav>
        </ScrollArea>
      </AppShell.Navbar>
      <AppShell.Main id="main" tabIndex={-1}>
        <LiveEvents />
        <Suspense fallback={<CenteredLoader />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}
