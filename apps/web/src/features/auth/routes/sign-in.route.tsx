import { useEffect, useRef, useState } from 'react';
import {
  Anchor,
  Button,
  Divider,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDocumentTitle } from '@mantine/hooks';
import { Link, useNavigate } from 'react-router';
import { isApiError } from '@interlock/api-client';
import { FormError } from '@/shared/components/form-error';
import { useSignIn } from '../api/auth.queries';
import { RedirectIfSignedIn, useNextPath } from '../components/redirect-if-signed-in';

export function SignInRoute() {
  useDocumentTitle('Sign in · Interlock');
  const navigate = useNavigate();
  const next = useNextPath();
  const signIn = useSignIn();
  // Two-factor accounts answer TWO_FACTOR_REQUIRED to the right password: then ask for the code.
  const [askCode, setAskCode] = useState(false);
  const codeInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (askCode) codeInput.current?.focus();
  }, [askCode]);
  const form = useForm({
    initialValues: { email: '', password: '', code: '' },
    validate: {
      email: (v) => (v.trim() === '' ? 'Enter your email address' : null),
      password: (v) => (v === '' ? 'Enter your password' : null),
      code: (v) => (askCode && v.trim() === '' ? 'Enter the code from your app' : null),
    },
  });
  const codeAsked = isApiError(signIn.error) && signIn.error.code === 'TWO_FACTOR_REQUIRED';
  return (
    <form
      onSubmit={form.onSubmit((values) => {
        void signIn
          .mutateAsync({
            email: values.email.trim(),
            password: values.password,
            ...(askCode ? { code: values.code.trim() } : {}),
          })
          .then(
            () => navigate(next, { replace: true }),
            (error: unknown) => {
              if (isApiError(error) && error.code === 'TWO_FACTOR_REQUIRED') setAskCode(true);
            },
          );
      })}
    >
      {signIn.isIdle && <RedirectIfSignedIn />}
      <Stack>
        <Title order={1} size="h3">
          Sign in to Interlock
        </Title>
        {askCode ? (
          <>
            <Text size="sm">
              Enter the 6-digit code from your authenticator app for {form.values.email.trim()}, or
              one of your recovery codes.
            </Text>
            <TextInput
              label="Two-factor code"
              ref={codeInput}
              autoComplete="one-time-code"
              required
              {...form.getInputProps('code')}
            />
          </>
        ) : (
          <>
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
          </>
        )}
        {!codeAsked && <FormError error={signIn.error} />}
        <Button type="submit" loading={signIn.isPending} fullWidth>
          {askCode ? 'Verify' : 'Sign in'}
        </Button>
        {askCode ? (
          <Anchor
            component="button"
            type="button"
            size="sm"
            ta="center"
            onClick={() => {
              setAskCode(false);
              form.setFieldValue('code', '');
              signIn.reset();
            }}
          >
            Use another account
          </Anchor>
        ) : (
          <>
            <Divider label="or" labelPosition="center" />
            <Button
              component={Link}
              to={next === '/' ? '/sign-in/sso' : `/sign-in/sso?next=${encodeURIComponent(next)}`}
              state={{ email: form.values.email.trim() }}
              variant="default"
              fullWidth
            >
              Sign in with single sign-on
            </Button>
            <Text size="sm" ta="center">
              New to Interlock?{' '}
              <Anchor component={Link} to="/sign-up">
                Create an organisation
              </Anchor>
            </Text>
          </>
        )}
      </Stack>
    </form>
  );
}
