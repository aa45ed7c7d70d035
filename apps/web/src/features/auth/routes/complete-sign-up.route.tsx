import { Anchor, Loader, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useEffect, useRef } from 'react';
import { Link, useNavigate } from 'react-router';
import { FormError } from '@/shared/components/form-error';
import { whenSettled } from '@/shared/utils/when-settled';
import { useCompleteSignUp } from '../api/auth.queries';
import { useFragmentToken } from '../utils/use-fragment-token';

/**
 * The emailed sign-up link's page (`/complete-sign-up#<token>`, SPEC §8f). The token is in the
 * URL's fragment, which the browser never sends anywhere; the page reads it, drops it from the
 * address bar, and finishes the sign-up at once: the account, its organisation, signed in.
 */
export function CompleteSignUpRoute() {
  useDocumentTitle('Finish signing up · Interlock');
  const token = useFragmentToken();
  if (token === '') {
    return (
      <Stack>
        <Title order={1} size="h3">
          Finish signing up
        </Title>
        <Text>Open this page from the link we emailed you when you signed up.</Text>
        <Anchor component={Link} to="/sign-up">
          Sign up
        </Anchor>
      </Stack>
    );
  }
  return <Complete key={token} token={token} />;
}

function Complete({ token }: { token: string }) {
  const complete = useCompleteSignUp();
  const navigate = useNavigate();
  const sent = useRef(false);
  useEffect(() => {
    // Once per link, also when the effect runs twice in development.
    if (sent.current) return;
    sent.current = true;
    whenSettled(
      complete.mutateAsync(token),
      () => void navigate('/integrations/api-keys?welcome=1', { replace: true }),
    );
  }, [token, complete, navigate]);
  if (complete.isError) {
    return (
      <Stack>
        <Title order={1} size="h3">
          Your account was not created
        </Title>
        <FormError error={complete.error} />
        <Text size="sm">
          <Anchor component={Link} to="/sign-in">
            Sign in
          </Anchor>{' '}
          or{' '}
          <Anchor component={Link} to="/sign-up">
            sign up again
          </Anchor>
        </Text>
      </Stack>
    );
  }
  return (
    <Stack align="center">
      <Loader aria-label="Creating your account" />
      <Text>Creating your account and organisation…</Text>
    </Stack>
  );
}
