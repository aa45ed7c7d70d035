import { Alert, Button, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDocumentTitle } from '@mantine/hooks';
import { FormError } from '@/shared/components/form-error';
import { PageHeader } from '@/shared/components/page-header';
import { useChangePassword } from '../api/account.queries';

/** Settings → Security: the signed-in person's password (issue 33). */
export function SecurityRoute() {
  useDocumentTitle('Security · Interlock');
  return (
    <>
      <PageHeader title="Security" description="Your password and where you are signed in." />
      <Stack gap="lg" maw={640}>
        <ChangePasswordForm />
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
        v.length < 8
          ? 'Use at least 8 characters'
          : v === values.currentPassword
            ? 'Choose a password other than the current one'
            : null,
      repeat: (v, values) => (v !== values.newPassword ? 'The two passwords differ' : null),
    },
  });
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="password-heading">
      <form
        onSubmit={form.onSubmit((values) =>
          change.mutate(
            { currentPassword: values.currentPassword, newPassword: values.newPassword },
            { onSuccess: () => form.reset() },
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
          <PasswordInput
            label="New password"
            description="8 to 200 characters."
            autoComplete="new-password"
            required
            {...form.getInputProps('newPassword')}
          />
          <PasswordInput
            label="New password again"
            autoComplete="new-password"
            required
            {...form.getInputProps('repeat')}
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
