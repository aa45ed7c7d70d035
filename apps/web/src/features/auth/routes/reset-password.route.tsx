import { Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDocumentTitle } from '@mantine/hooks';
import { useState } from 'react';
import { Link } from 'react-router';
import { FormError } from '@/shared/components/form-error';
import {
  NewPasswordFields,
  newPasswordError,
  repeatedPasswordError,
} from '@/shared/components/new-password';
import { useConfirmPasswordReset, useRequestPasswordReset } from '../api/passwords.queries';
import { useFragmentToken } from '../utils/use-fragment-token';
import { whenSettled } from '@/shared/utils/when-settled';

/**
 * "Forgot your password?" and the emailed link's page. The link carries its token in the URL's
 * fragment (`/reset-password#<token>`), which the browser never sends anywhere: with one, the page
 * sets a new password; without one, it asks for a link.
 */
export function ResetPasswordRoute() {
  const token = useFragmentToken();
  return token === '' ? <RequestLink /> : <ChooseNewPassword key={token} token={token} />;
}

function RequestLink() {
  useDocumentTitle('Reset your password · Interlock');
  const request = useRequestPasswordReset();
  const [sentTo, setSentTo] = useState<string>();
  const form = useForm({
    initialValues: { email: '' },
    validate: { email: (v) => (v.trim() === '' ? 'Enter your email address' : null) },
  });
  if (sentTo !== undefined) {
    return (
      <Stack>
        <Title order={1} size="h3">
          Check your email
        </Title>
        <Text>
          If an Interlock account uses {sentTo}, we have emailed it a link to choose a new password.
          The link works once, for 30 minutes.
        </Text>
        <Text size="sm" c="dimmed">
          Nothing arrived after a few minutes? Look in your spam folder, check the address, or ask
          again.
        </Text>
        <Anchor component={Link} to="/sign-in">
          Back to sign in
        </Anchor>
      </Stack>
    );
  }
  return (
    <form
      onSubmit={form.onSubmit((values) => {
        const email = values.email.trim();
        whenSettled(request.mutateAsync(email), () => setSentTo(email));
      })}
    >
      <Stack>
        <Title order={1} size="h3">
          Reset your password
        </Title>
        <Text size="sm">
          Enter the email address you sign in with: we will email it a link to choose a new
          password.
        </Text>
        <TextInput
          label="Email"
          type="email"
          autoComplete="email"
          required
          {...form.getInputProps('email')}
        />
        <FormError error={request.error} />
        <Button type="submit" loading={request.isPending} fullWidth>
          Email me a link
        </Button>
        <Text size="sm" ta="center">
          <Anchor component={Link} to="/sign-in">
            Back to sign in
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}

function ChooseNewPassword({ token }: { token: string }) {
  useDocumentTitle('Choose a new password · Interlock');
  const confirm = useConfirmPasswordReset();
  const form = useForm({
    initialValues: { password: '', repeat: '' },
    validate: {
      password: newPasswordError,
      repeat: (v, values) => repeatedPasswordError(v, values.password),
    },
  });
  if (confirm.isSuccess) {
    return (
      <Stack>
        <Title order={1} size="h3">
          Your password is changed
        </Title>
        <Text>Every device that was signed in has been signed out. Sign in with the new one.</Text>
        <Button component={Link} to="/sign-in">
          Sign in
        </Button>
      </Stack>
    );
  }
  return (
    <form
      onSubmit={form.onSubmit((values) => confirm.mutate({ token, password: values.password }))}
    >
      <Stack>
        <Title order={1} size="h3">
          Choose a new password
        </Title>
        <NewPasswordFields
          label="New password"
          description="Setting it signs you out everywhere."
          password={form.getInputProps('password')}
          repeat={form.getInputProps('repeat')}
        />
        <FormError error={confirm.error} />
        {confirm.error !== null && (
          <Anchor component={Link} to="/reset-password" reloadDocument size="sm">
            Ask for a new link
          </Anchor>
        )}
        <Button type="submit" loading={confirm.isPending} fullWidth>
          Set the new password
        </Button>
      </Stack>
    </form>
  );
}
