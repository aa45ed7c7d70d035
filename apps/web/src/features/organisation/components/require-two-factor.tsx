import { Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { confirmAction } from '@/shared/components/confirm';
import { FormError } from '@/shared/components/form-error';
import { QueryError } from '@/shared/components/query-error';
import { useRoles } from '@/shared/directory/directory.queries';
import { useCan, useSignInSession } from '@/shared/sign-in/sign-in-session.queries';
import { notifySuccess } from '@/shared/utils/notify';
import { whenSettled } from '@/shared/utils/when-settled';
import { usePutTwoFactorRequirement, useTwoFactorRequirement } from '../api/organisation.queries';

/**
 * Settings → Organisation: "Require two-factor sign-in for members" (SPEC §8f). Every member
 * sees whether it is on; only an Owner (the built-in role: the API refuses anyone else, even a
 * custom role holding member.manage) sees the switch; the API's "turn yours on first" shows under
 * it word for word.
 */
export function RequireTwoFactor() {
  const requirement = useTwoFactorRequirement();
  const member = useSignInSession().data?.member;
  const holdsManage = useCan('member.manage');
  const listsRoles = useCan('role.manage');
  // An Owner holds every permission, so may list the roles; whose role is the built-in Owner's.
  const roles = useRoles({ enabled: holdsManage && listsRoles });
  const canManage = roles.data?.find((r) => r.id === member?.roleId)?.builtIn === 'owner';
  const change = usePutTwoFactorRequirement();
  const turnOn = () =>
    confirmAction({
      title: 'Require two-factor sign-in?',
      body: (
        <Text size="sm">
          Members who signed in with a password and have not turned on two-factor sign-in can do
          nothing in this organisation until they set it up (the dashboard takes them there),
          starting with their next click. Members signed in with single sign-on follow your identity
          provider’s policy. API keys keep working.
        </Text>
      ),
      confirmLabel: 'Require two-factor sign-in',
      danger: false,
      onConfirm: () =>
        change.mutateAsync(true).then(() => notifySuccess('Two-factor sign-in is now required')),
    });
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="require-two-factor-heading">
      <Stack gap="xs">
        <Title order={2} size="h4" id="require-two-factor-heading">
          Two-factor sign-in
        </Title>
        {requirement.isError ? (
          <QueryError error={requirement.error} onRetry={() => void requirement.refetch()} />
        ) : canManage ? (
          <Switch
            label="Require two-factor sign-in for members"
            description="Only an Owner with two-factor sign-in on can change this. Members without it are sent to set it up before they can do anything else here."
            checked={requirement.data?.requireTwoFactor ?? false}
            disabled={requirement.isPending || change.isPending}
            onChange={(event) => {
              if (event.currentTarget.checked) turnOn();
              else
                whenSettled(change.mutateAsync(false), () =>
                  notifySuccess('Two-factor sign-in is no longer required'),
                );
            }}
          />
        ) : (
          <Text size="sm">
            {requirement.data?.requireTwoFactor === true
              ? 'Members must use two-factor sign-in.'
              : 'Two-factor sign-in is up to each member.'}
          </Text>
        )}
        <FormError error={change.error} />
      </Stack>
    </Paper>
  );
}
