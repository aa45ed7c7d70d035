import { AppShell, Avatar, Burger, Group, Menu, Stack, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect } from 'react';
import { Navigate, Outlet, useLocation, useNavigate, useSearchParams } from 'react-router';
import { isApiError } from '@interlock/api-client';
import { useSignOut } from '@/features/auth/api/auth.queries';
import { OrganisationSwitcher } from '@/features/organisation/components/organisation-switcher';
import { CenteredLoader } from '@/shared/components/centered-loader';
import { MenuOnDemand } from '@/shared/components/menu-on-demand';
import { QueryError } from '@/shared/components/query-error';
import { useActiveOrganisation } from '@/shared/sign-in/active-organisation';
import { useMe, type Account, type MyOrganisation } from '@/shared/sign-in/me.queries';
import { useSignInSession } from '@/shared/sign-in/sign-in-session.queries';
import { switchOrganisation } from '@/shared/sign-in/switch-organisation';
import { notifyError } from '@/shared/utils/notify';
import { LiveEvents } from '../live-events';
import { WaitingIndicator } from '../waiting-indicator';
import { Logo } from './logo';
import { NoAccess } from './no-access';
import { MainNav } from './main-nav';
import { pagePermissions } from './nav-items';
import { useTableCellLabels } from './table-cell-labels';
import { whenSettled } from '@/shared/utils/when-settled';

// What a signed-in person sees only in rare states (a member of no organisation; an organisation
// that requires two-factor sign-in of someone without it): their own chunks, not the first load's
// (the set-up carries the QR code generator, the other a form).
const NoOrganisation = lazy(() =>
  import('@/features/organisation/components/no-organisation').then((m) => ({
    default: m.NoOrganisation,
  })),
);
const TwoFactorEnrolment = lazy(() =>
  import('@/features/account/components/two-factor-enrolment').then((m) => ({
    default: m.TwoFactorEnrolment,
  })),
);

/**
 * The organisation this tab acts for, among the person's: `?organisation=<id>` in the address
 * (a link into one of them), else the tab's last choice, else the first. Until the tab acts for
 * it, nothing is shown (so no page reads with another organisation's header).
 */
function useChosenOrganisation(organisations: MyOrganisation[]): MyOrganisation | undefined {
  const queryClient = useQueryClient();
  const active = useActiveOrganisation();
  const [params] = useSearchParams();
  const asked = params.get('organisation');
  const chosen =
    organisations.find((o) => o.id === asked) ??
    organisations.find((o) => o.id === active) ??
    organisations[0];
  useEffect(() => {
    if (chosen !== undefined && chosen.id !== active)
      void switchOrganisation(queryClient, chosen.id);
  }, [chosen, active, queryClient]);
  return chosen?.id === active ? chosen : undefined;
}

/** The signed-in layout: who is signed in, and which of their organisations this tab acts for. */
export function AppLayout() {
  const me = useMe();
  const location = useLocation();
  const navigate = useNavigate();
  const signOut = useSignOut();
  const chosen = useChosenOrganisation(me.data?.organisations ?? []);

  if (me.isPending) return <CenteredLoader label="Loading your organisations" />;
  if (me.isError) return <QueryError error={me.error} onRetry={() => void me.refetch()} />;
  if (me.data === null) {
    const next = `${location.pathname}${location.search}`;
    return (
      <Navigate
        to={next === '/' ? '/sign-in' : `/sign-in?next=${encodeURIComponent(next)}`}
        replace
      />
    );
  }
  if (me.data.organisations.length === 0) {
    return (
      <Suspense fallback={<CenteredLoader />}>
        <NoOrganisation
          account={me.data}
          onSignOut={() =>
            whenSettled(
              signOut.mutateAsync(),
              () => void navigate('/sign-in', { replace: true }),
              (error) => notifyError(error, 'Could not sign out'),
            )
          }
        />
      </Suspense>
    );
  }
  if (chosen === undefined) return <CenteredLoader label="Loading your organisation" />;
  // Keyed by the organisation: switching remounts every page, whose reads start afresh.
  return <SignedInFrame key={chosen.id} account={me.data} current={chosen} />;
}

/** The signed-in frame: navigation by permission, the organisation switcher, the person's menu. */
function SignedInFrame({ account, current }: { account: Account; current: MyOrganisation }) {
  const session = useSignInSession();
  const location = useLocation();
  const navigate = useNavigate();
  const [opened, { toggle, close }] = useDisclosure();
  const signOut = useSignOut();
  const labelTables = useTableCellLabels();

  if (session.isPending) return <CenteredLoader label="Loading your organisation" />;
  if (isApiError(session.error) && session.error.code === 'TWO_FACTOR_ENROLMENT_REQUIRED')
    // The organisation requires two-factor sign-in and theirs is off: only the set-up, until it is on.
    return (
      <Suspense fallback={<CenteredLoader />}>
        <TwoFactorEnrolment
          message={session.error.message}
          onContinue={() => void session.refetch()}
          onSignOut={() =>
            whenSettled(
              signOut.mutateAsync(),
              () => void navigate('/sign-in', { replace: true }),
              (error) => notifyError(error, 'Could not sign out'),
            )
          }
        />
      </Suspense>
    );
  if (session.isError)
    return <QueryError error={session.error} onRetry={() => void session.refetch()} />;
  if (session.data === null) return <CenteredLoader label="Signing in again" />;
  const { member, permissions } = session.data;
  const needs = pagePermissions(location.pathname);
  const allowed = needs === undefined || needs.some((p) => permissions.includes(p));

  return (
    <AppShell
      header={{ height: 56 }}
      // The navigation folds behind the burger below 62em (a tablet, 768×1024, too): its 240 px
      // would leave a table too little room beside it (issue 31 §3).
      navbar={{ width: 240, breakpoint: 'md', collapsed: { mobile: !opened } }}
      padding="lg"
    >
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="xs">
          <Group gap="sm" wrap="nowrap" miw={0}>
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="md"
              size="sm"
              // A thumb-sized target (44 px, WCAG 2.5.5) around the small icon.
              style={{ width: 44, height: 44, padding: 13 }}
              aria-label="Toggle navigation"
            />
            <Logo />
            <OrganisationSwitcher current={current} organisations={account.organisations} />
          </Group>
          <MenuOnDemand
            position="bottom-end"
            withinPortal
            target={
              <UnstyledButton aria-label={`Account: ${member.name}`} px="xs" py={4}>
                <Avatar size="sm" name={member.name} color="initials" hiddenFrom="sm" aria-hidden />
                <Stack gap={0} align="flex-end" visibleFrom="sm" maw={280}>
                  <Text size="sm" fw={500} truncate="end" maw="100%" title={member.name}>
                    {member.name}
                  </Text>
                  <Text size="xs" c="dimmed" truncate="end" maw="100%" title={member.email}>
                    {member.email}
                  </Text>
                </Stack>
              </UnstyledButton>
            }
          >
            <Menu.Item onClick={() => void navigate('/settings')}>Settings</Menu.Item>
            <Menu.Item onClick={() => void navigate('/settings/profile')}>Profile</Menu.Item>
            <Menu.Item onClick={() => void navigate('/settings/security')}>Security</Menu.Item>
            <Menu.Item onClick={() => void navigate('/settings/notifications')}>
              Notifications
            </Menu.Item>
            <Menu.Item onClick={() => void navigate('/settings/classification')}>
              Classification
            </Menu.Item>
            <Menu.Item onClick={() => void navigate('/settings/deadlines')}>Deadlines</Menu.Item>
            <Menu.Item onClick={() => void navigate('/settings/escalation')}>Escalation</Menu.Item>
            <Menu.Item
              color="red"
              onClick={() =>
                whenSettled(
                  signOut.mutateAsync(),
                  () => void navigate('/sign-in', { replace: true }),
                  (error) => notifyError(error, 'Could not sign out'),
                )
              }
            >
              Sign out
            </Menu.Item>
          </MenuOnDemand>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm" aria-label="Main">
        <div className="main-nav-scroll">
          <MainNav pathname={location.pathname} permissions={permissions} onNavigate={close} />
        </div>
      </AppShell.Navbar>
      <AppShell.Main id="main" tabIndex={-1} ref={labelTables}>
        <LiveEvents />
        <WaitingIndicator />
        <Suspense fallback={<CenteredLoader />}>
          {allowed ? <Outlet /> : <NoAccess needs={needs ?? []} />}
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}
