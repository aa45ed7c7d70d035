import { Anchor, Button, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDocumentTitle } from '@mantine/hooks';
import { Link, useNavigate } from 'react-router';
import { FormError } from '@/shared/components/form-error';
import { useSignIn } from '../api/auth.queries';
import { RedirectIfSignedIn, useNextPath } from '../components/redirect-if-signed-in';
import { whenSettled } from '@/shared/utils/when-settled';

export function SignInRoute() {
  useDocumentTitle('Sign in · Interlock');
  const navigate = useNavigate();
  const next = useNextPath();
  const signIn = useSignIn();
  const form = useForm({
    initialValues: { email: '', password: '' },
    validate: {
      email: (v) => (v.trim() === '' ? 'Enter your email address' : null),
      password: (v) => (v === '' ? 'Enter your password' : null),
    },
  });
  return (
    <form
      onSubmit={form.onSubmit((values) =>
        whenSettled(
          signIn.mutateAsync({ email: values.email.trim(), password: values.password }),
          () => void navigate(next, { replace: true }),
        ),
      )}
    >
      {signIn.isIdle && <RedirectIfSignedIn />}
      <Stack>
        <Title order={1} size="h3">
          Sign in to Interlock
        </Title>
        <TextInput
          label="Email"
          type="email"
          autoComplete="email"
          required
          {...form.getInputProps('email')}
        />
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          required
          {...form.getInputProps('password')}
        />
        <Anchor component={Link} to="/reset-password" size="sm" mt={-8}>
          Forgot your password?
        </Anchor>
        <FormError error={signIn.error} />
        <Button type="submit" loading={signIn.isPending} fullWidth>
          Sign in
        </Button>
        <Text size="sm" ta="center">
          New to Interlock?{' '}
          <Anchor component={Link} to="/sign-up">
            Create an organisation
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
