import { Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDocumentTitle } from '@mantine/hooks';
import { Link, useLocation } from 'react-router';
import { FormError } from '@/shared/components/form-error';
import { useStartSingleSignOn } from '../api/auth.queries';
import { RedirectIfSignedIn, useNextPath } from '../components/redirect-if-signed-in';
import { providerPage, rememberSsoLink, rememberSsoNext } from '@/shared/sign-in/sso-next';

/**
 * Sign in with single sign-on (SPEC §8f): the person's work address names their organisation's
 * OpenID provider; the browser goes to its sign-in page, which sends it back to `/sso/callback`.
 */
export function SsoSignInRoute() {
  useDocumentTitle('Sign in with single sign-on · Interlock');
  const next = useNextPath();
  const location = useLocation();
  const typed = (location.state as { email?: unknown } | null)?.email;
  const start = useStartSingleSignOn();
  const form = useForm({
    initialValues: { email: typeof typed === 'string' ? typed : '' },
    validate: { email: (v) => (v.trim() === '' ? 'Enter your work email address' : null) },
  });
  const busy = start.isPending || start.isSuccess;
  return (
    <form
      onSubmit={form.onSubmit((values) => {
        void start.mutateAsync(values.email.trim()).then(
          ({ authorizationUrl }) => {
            rememberSsoNext(next);
            rememberSsoLink(null);
            providerPage.open(authorizationUrl);
          },
          () => undefined,
        );
      })}
    >
      {start.isIdle && <RedirectIfSignedIn />}
      <Stack>
        <Title order={1} size="h3">
          Sign in with single sign-on
        </Title>
        <Text size="sm">
          Enter your work email address: you sign in at your organisation&apos;s identity provider,
          which sends you back here.
        </Text>
        <TextInput
          label="Work email"
          type="email"
          autoComplete="email"
          required
          data-autofocus
          {...form.getInputProps('email')}
        />
        <FormError error={start.error} />
        <Button type="submit" loading={busy} fullWidth>
          Continue to your identity provider
        </Button>
        <Anchor component={Link} to="/sign-in" size="sm" ta="center">
          Sign in with a password instead
        </Anchor>
      </Stack>
    </form>
  );
}
