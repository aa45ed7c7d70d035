import { Anchor, Button, Loader, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { FormError } from '@/shared/components/form-error';
import { useVerifyEmail } from '../api/email-verification.queries';
import { useFragmentToken } from '../utils/use-fragment-token';

/**
 * The emailed verification link's page (`/verify-email#<token>`, SPEC §8f). The token is in the
 * URL's fragment, which the browser never sends anywhere; the page reads it, drops it from the
 * address bar, and verifies at once — in any browser, signed in or not.
 */
export function VerifyEmailRoute() {
  useDocumentTitle('Verify your email address · Interlock');
  const token = useFragmentToken();
  if (token === '') {
    return (
      <Stack>
        <Title order={1} size="h3">
          Verify your email address
        </Title>
        <Text>
          Open this page from the link we emailed you. Signed in, you can ask for a link in Settings
          → Security.
        </Text>
        <Anchor component={Link} to="/sign-in">
          Sign in
        </Anchor>
      </Stack>
    );
  }
  return <Verify key={token} token={token} />;
}

function Verify({ token }: { token: string }) {
  const verify = useVerifyEmail();
  const sent = useRef(false);
  useEffect(() => {
    // Once per link, also when the effect runs twice in development.
    if (sent.current) return;
    sent.current = true;
    verify.mutate(token);
  }, [token, verify]);
  if (verify.isSuccess) {
    return (
      <Stack>
        <Title order={1} size="h3">
          Your email address is verified
        </Title>
        <Text>
          You can now accept invitations to other organisations and receive notifications.
        </Text>
        <Button component={Link} to="/">
          Open Interlock
        </Button>
      </Stack>
    );
  }
  if (verify.isError) {
    return (
      <Stack>
        <Title order={1} size="h3">
          Your email address is not verified
        </Title>
        <FormError error={verify.error} />
        <Anchor component={Link} to="/settings/security">
          Ask for a new link in Settings → Security
        </Anchor>
      </Stack>
    );
  }
  return (
    <Stack align="center">
      <Loader aria-label="Verifying your email address" />
      <Text>Verifying your email address…</Text>
    </Stack>
  );
}
