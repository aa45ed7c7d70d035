import { Anchor, Loader, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useEffect, useRef } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { FormError } from '@/shared/components/form-error';
import { useFinishSingleSignOn } from '../api/auth.queries';
import { takeSsoNext } from '../utils/sso-next';

/**
 * Where the identity provider sends the browser back (`<DASHBOARD_URL>/sso/callback`, SPEC
 * §8f): the page hands the query string, as received, to the API once — the code in it works
 * once — and goes on signed in, or shows why not (the API's exact words).
 */
export function SsoCallbackRoute() {
  useDocumentTitle('Signing in with single sign-on · Interlock');
  const { search } = useLocation();
  const navigate = useNavigate();
  const finish = useFinishSingleSignOn();
  const sent = useRef(false);
  useEffect(() => {
    // Once per visit, also when the effect runs twice in development.
    if (sent.current) return;
    sent.current = true;
    void finish.mutateAsync(search).then(
      () => navigate(takeSsoNext(), { replace: true }),
      () => undefined,
    );
  }, [search, finish, navigate]);
  if (finish.isError) {
    return (
      <Stack>
        <Title order={1} size="h3">
          Single sign-on did not sign you in
        </Title>
        <FormError error={finish.error} />
        <Anchor component={Link} to="/sign-in/sso">
          Start single sign-on again
        </Anchor>
        <Anchor component={Link} to="/sign-in">
          Sign in with a password
        </Anchor>
      </Stack>
    );
  }
  return (
    <Stack align="center">
      <Title order={1} size="h3">
        Signing you in
      </Title>
      <Loader aria-label="Finishing single sign-on" />
      <Text>Checking your identity provider&apos;s answer…</Text>
    </Stack>
  );
}
