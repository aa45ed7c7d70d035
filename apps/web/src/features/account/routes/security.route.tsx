import {
  Alert,
  Badge,
  Button,
  Group,
  Paper,
  PasswordInput,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDocumentTitle } from '@mantine/hooks';
import { FormError } from '@/shared/components/form-error';
import {
  NewPasswordFields,
  newPasswordError,
  repeatedPasswordError,
} from '@/shared/components/new-password';
import { PageHeader } from '@/shared/components/page-header';
import { ConfirmButton } from '@/shared/components/confirm';
import { QueryError } from '@/shared/components/query-error';
import { RelativeTime } from '@/shared/components/relative-time';
import {
  useChangePassword,
  useEndOtherSignInSessions,
  useEndSignInSession,
  useMySignInSessions,
} from '../api/account.queries';
import { EmailAddress } from '../components/email-address';
import { SingleSignOn } from '../components/single-sign-on';
import { TwoFactor } from '../components/two-factor';
import { whenSettled } from '@/shared/utils/when-settled';

/** Settings → Security: the signed-in person's address, password, two-factor sign-in, single sign-on and sign-in sessions (issue 33). */
export function SecurityRoute() {
  useDocumentTitle('Security · Interlock');
  return (
    <>
      <PageHeader
        title="Security"
        description="Your email address, your password, two-factor sign-in, single sign-on and where you are signed in."
      />
      <Stack gap="lg" maw={900}>
        <EmailAddress />
        <ChangePasswordForm />
        <TwoFactor />
        <SingleSignOn />
        <SignInSessions />
      </Stack>
    </>
  );
}

function ChangePasswordForm() {
  const change = useChangePassword();
  const form = useForm({
    initialValues: { currentPassword: '', newPassword: '', repeat: '' },
    validate: {
      currentPassword: (v) => (v === '' ? 'Enter your current password' : null),
      newPassword: (v, values) =>
        newPasswordError(v) ??
        (v === values.currentPassword ? 'Choose a password other than the current one' : null),
      repeat: (v, values) => repeatedPasswordError(v, values.newPassword),
    },
  });
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="password-heading">
      <form
        onSubmit={form.onSubmit((values) =>
          whenSettled(
            change.mutateAsync({
              currentPassword: values.currentPassword,
              newPassword: values.newPassword,
            }),
            () => form.reset(),
          ),
        )}
      >
        <Stack gap="md">
          <Title order={2} size="h4" id="password-heading">
            Password
          </Title>
          <Text size="sm" c="dimmed">
            Changing it signs you out on every other device; you stay signed in here. We email you
            when it changes.
          </Text>
          <PasswordInput
            label="Current password"
            autoComplete="current-password"
            required
            {...form.getInputProps('currentPassword')}
          />
          <NewPasswordFields
            label="New password"
            password={form.getInputProps('newPassword')}
            repeat={form.getInputProps('repeat')}
          />
          <FormError error={change.error} />
          {change.isSuccess && (
            <Alert color="green" variant="light" role="status" p="xs">
              Your password is changed. Your other devices have been signed out.
            </Alert>
          )}
          <Button type="submit" loading={change.isPending} w="fit-content">
            Change password
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}

/** Where the person is signed in: each sign-in session, ending one or all the others. */
function SignInSessions() {
  const sessions = useMySignInSessions();
  const end = useEndSignInSession();
  const endOthers = useEndOtherSignInSessions();
  const others = (sessions.data?.sessions ?? []).filter((s) => !s.current).length;
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="sessions-heading">
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h4" id="sessions-heading">
            Where you are signed in
          </Title>
          <ConfirmButton
            variant="light"
            color="red"
            disabled={others === 0}
            confirm={{
              title: 'Sign out everywhere else?',
              body: `Your ${others === 1 ? 'other session ends' : `${others} other sessions end`}; you stay signed in here.`,
              confirmLabel: 'Sign out everywhere else',
              onConfirm: () => endOthers.mutateAsync(),
            }}
          >
            Sign out everywhere else
          </ConfirmButton>
        </Group>
        <Text size="sm" c="dimmed">
          A session ends 30 days after signing in, or after a week unused.
        </Text>
        {sessions.error !== null && <QueryError error={sessions.error} />}
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Browser</Table.Th>
              <Table.Th>Address</Table.Th>
              <Table.Th>Last used</Table.Th>
              <Table.Th>Signed in</Table.Th>
              <Table.Th>
                <span className="visually-hidden">Actions</span>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(sessions.data?.sessions ?? []).map((session) => (
              <Table.Tr key={session.id}>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>
                  {session.userAgent ?? 'Not used yet'}{' '}
                  {session.current && (
                    <Badge size="sm" variant="light">
                      This browser
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{session.ipAddress ?? '—'}</Table.Td>
                <Table.Td>
                  <RelativeTime value={session.lastUsedAt} />
                </Table.Td>
                <Table.Td>
                  <RelativeTime value={session.createdAt} />
                </Table.Td>
                <Table.Td>
                  {!session.current && (
                    <ConfirmButton
                      size="xs"
                      variant="subtle"
                      color="red"
                      confirm={{
                        title: 'End this session?',
                        body: `${session.userAgent ?? 'That browser'} is signed out at its next request.`,
                        confirmLabel: 'End session',
                        onConfirm: () => end.mutateAsync(session.id),
                      }}
                    >
                      End
                    </ConfirmButton>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </Paper>
  );
}
