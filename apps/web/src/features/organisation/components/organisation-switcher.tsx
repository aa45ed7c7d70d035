import { Badge, Group, Menu, Stack, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { MyOrganisation } from '@/shared/sign-in/me.queries';
import { useSignInSession } from '@/shared/sign-in/sign-in-session.queries';
import { switchOrganisation } from '@/shared/sign-in/switch-organisation';
import { MenuOnDemand } from '@/shared/components/menu-on-demand';
import { CreateOrganisationModal } from './create-organisation-modal';

/**
 * The header's organisation switcher: the organisation this tab acts for and the person's role
 * in it; the others they belong to; creating another — not offered to a single sign-on session,
 * which acts for its organisation only (the API would refuse it: SPEC §8f). Switching changes
 * this tab only.
 */
export function OrganisationSwitcher({
  current,
  organisations,
}: {
  current: MyOrganisation;
  organisations: MyOrganisation[];
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [creating, { open, close }] = useDisclosure(false);
  const mayCreate = useSignInSession().data?.signedInWith !== 'single_sign_on';
  const choose = (organisation: MyOrganisation) => {
    if (organisation.id === current.id) return;
    // Where the person lands in the other organisation: its start page (an id on this page is not its).
    void navigate('/');
    void switchOrganisation(queryClient, organisation.id);
  };
  return (
    <>
      {/* No focus placeholder: a bare div inside role="menu" fails aria-required-children (mantinedev/mantine#8971). */}
      <MenuOnDemand
        position="bottom-start"
        withinPortal
        withInitialFocusPlaceholder={false}
        target={
          <UnstyledButton
            aria-label={`Organisation: ${current.name} (${current.roleName}). Switch organisation`}
            px="xs"
            py={4}
            maw="100%"
            miw={0}
          >
            <Group gap="xs" wrap="nowrap" miw={0}>
              <Stack gap={0} miw={0}>
                <Text
                  fw={600}
                  size="sm"
                  truncate="end"
                  maw={{ base: 120, sm: 260 }}
                  title={current.name}
                >
                  {current.name}
                </Text>
                <Text size="xs" c="dimmed" visibleFrom="sm">
                  {current.roleName}
                </Text>
              </Stack>
              <Badge
                variant="light"
                color={current.plan === 'pro' ? 'violet' : 'gray'}
                aria-label={`Plan: ${current.plan}`}
                visibleFrom="sm"
              >
                {current.plan === 'pro' ? 'Pro' : 'Free'}
              </Badge>
              <Text size="xs" c="dimmed" aria-hidden>
                ▾
              </Text>
            </Group>
          </UnstyledButton>
        }
      >
        {organisations.map((organisation) => (
          <Menu.Item
            key={organisation.id}
            onClick={() => choose(organisation)}
            aria-current={organisation.id === current.id ? 'true' : undefined}
            rightSection={
              <Text size="xs" c="dimmed">
                {organisation.roleName}
              </Text>
            }
          >
            {organisation.id === current.id ? `✓ ${organisation.name}` : organisation.name}
          </Menu.Item>
        ))}
        {mayCreate && (
          <Menu.Item
            onClick={open}
            style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
          >
            Create organisation…
          </Menu.Item>
        )}
      </MenuOnDemand>
      {/* Mounted only while open (no modal hooks in a page's first load). */}
      <CreateOrganisationModal opened={creating} onClose={close} />
    </>
  );
}
