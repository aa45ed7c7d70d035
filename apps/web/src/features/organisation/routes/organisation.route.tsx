import type { Plan } from '@interlock/api-client';
import { Badge, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { CenteredLoader } from '@/shared/components/centered-loader';
import { confirmAction } from '@/shared/components/confirm';
import { PageHeader } from '@/shared/components/page-header';
import { QueryError } from '@/shared/components/query-error';
import { useCan } from '@/shared/sign-in/sign-in-session.queries';
import { bytes, dateTime } from '@/shared/utils/format';
import { describeDuration } from '@/shared/utils/duration';
import { notifySuccess } from '@/shared/utils/notify';
import { useChangePlan, useOrganisation } from '../api/organisation.queries';
import { RequireTwoFactor } from '../components/require-two-factor';
import { UsageBar } from '../components/usage-bar';

const PLANS: Record<Plan, { name: string; summary: string }> = {
  free: {
    name: 'Free',
    summary: 'Interrupts, sessions and the dashboard audit log, with a small monthly allowance.',
  },
  pro: {
    name: 'Pro',
    summary: 'Larger allowances and the audit log API for API keys (mirror it to your SIEM).',
  },
};

export function OrganisationRoute() {
  const organisation = useOrganisation();
  const canManageBilling = useCan('billing.manage');
  const change = useChangePlan();

  if (organisation.isPending) return <CenteredLoader label="Loading the organisation" />;
  if (organisation.isError)
    return <QueryError error={organisation.error} onRetry={() => void organisation.refetch()} />;
  const org = organisation.data;
  const other: Plan = org.plan === 'pro' ? 'free' : 'pro';
  // The one confirmation dialog: its button busy until the change answers, the API's message in it.
  const confirmPlan = (target: Plan) =>
    confirmAction({
      title: target === 'pro' ? 'Upgrade to Pro?' : 'Move to the Free plan?',
      body: (
        <>
          <Text size="sm">{PLANS[target].summary}</Text>
          {target === 'free' && (
            <Text size="sm">
              API keys lose access to the audit log API at once, and the Free allowances apply from
              now on.
            </Text>
          )}
        </>
      ),
      confirmLabel: target === 'pro' ? 'Upgrade' : 'Change plan',
      danger: false,
      onConfirm: () =>
        change
          .mutateAsync(target)
          .then(() => notifySuccess(`The organisation is now on the ${PLANS[target].name} plan`)),
    });

  return (
    <>
      <PageHeader
        title="Organisation & billing"
        description={`Created ${dateTime(org.createdAt)}.`}
      />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Paper withBorder p="lg">
          <Stack>
            <Title order={2} size="h4">
              {org.name}
            </Title>
            <Group gap="xs">
              <Text size="sm">Plan</Text>
              <Badge color={org.plan === 'pro' ? 'violet' : 'gray'} size="lg" variant="light">
                {PLANS[org.plan].name}
              </Badge>
            </Group>
            <Text size="sm" c="dimmed">
              {PLANS[org.plan].summary}
            </Text>
            {canManageBilling && (
              <Button
                variant={other === 'pro' ? 'filled' : 'default'}
                w="fit-content"
                onClick={() => confirmPlan(other)}
              >
                {other === 'pro' ? 'Upgrade to Pro' : 'Move to the Free plan'}
              </Button>
            )}
          </Stack>
        </Paper>
        <Paper withBorder p="lg">
          <Stack>
            <Title order={2} size="h4">
              Usage this month ({org.usage.month})
            </Title>
            <UsageBar
              label="Messages (interrupts opened)"
              allowance={org.usage.messages}
              unit="messages"
            />
            <UsageBar
              label="Agent hours (session time)"
              allowance={org.usage.agentHours}
              unit="hours"
            />
            <Text size="xs" c="dimmed">
              Allowances renew {dateTime(org.usage.renewsAt)}. When one is used up, agents get 402
              until then (or until you upgrade).
            </Text>
          </Stack>
        </Paper>
        <Paper withBorder p="lg">
          <Stack>
            <Title order={2} size="h4">
              Held now
            </Title>
            <UsageBar
              label="Session messages stored"
              allowance={org.usage.sessionMessageBytes}
              unit=""
              format={bytes}
            />
            <UsageBar
              label="Active sessions"
              allowance={org.usage.activeSessions}
              unit="sessions"
            />
            <Text size="xs" c="dimmed">
              Session messages are deleted{' '}
              {describeDuration(org.usage.sessionMessageRetentionSeconds)} after they were appended,
              which frees storage. When storage is full, appends get 402; when every active session
              is in use, starting one gets 402 until a session ends.
            </Text>
          </Stack>
        </Paper>
        <RequireTwoFactor />
      </SimpleGrid>
    </>
  );
}
