import { Anchor, Loader, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { FormError } from '@/shared/components/form-error';
import { useFinishSingleSignOn } from '../api/auth.queries';
import { readSsoLink, rememberSsoLink, takeSsoNext } from '@/shared/sign-in/sso-next';

/**
 * Where the identity provider sends the browser back (`<DASHBOARD_URL>/sso/callback`, SPEC
 * §8f): the page hands the query string, as received, to the API once — the code in it works
 * once — and goes on signed in, or shows why not (the API's exact words). A single sign-on
 * started from Settings → Security to link the account goes back there, saying it is linked.
 */
export function SsoCallbackRoute() {
  useDocumentTitle('Signing in with single sign-on · Interlock');
  const { search } = useLocation();
  const navigate = useNavigate();
  const finish = useFinishSingleSignOn();
  // Read once: the organisation whose single sign-on Settings → Security is linking, if so.
  const [linking] = useState(readSsoLink);
  const sent = useRef(false);
  useEffect(() => {
    // Once per visit, also when the effect runs twice in development.
    if (sent.current) return;
    sent.current = true;
    rememberSsoLink(null);
    void finish.mutateAsync({ callbackQuery: search, linking: linking !== null }).then(
      () =>
        navigate(takeSsoNext(), {
          replace: true,
          state: linking === null ? undefined : { ssoLinked: linking },
        }),
      () => undefined,
    );
  }, [search, finish, navigate, linking]);
  if (finish.isError) {
    return (
      <Stack>
        <Title order={1} size="h3">
          {linking === null
            ? 'Single sign-on did not sign you in'
            : 'Single sign-on was not linked to your account'}
        </Title>
        <FormError error={finish.error} />
        {linking !== null && (
          <Anchor component={Link} to="/settings/security">
            Back to Settings → Security
          </Anchor>
        )}
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
