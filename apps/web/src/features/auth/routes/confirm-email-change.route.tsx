import { Anchor, Button, Loader, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { FormError } from '@/shared/components/form-error';
import { useConfirmEmailChange } from '../api/email-change.queries';
import { useFragmentToken } from '../utils/use-fragment-token';

/**
 * The link emailed to a new address (`/confirm-email-change#<token>`, SPEC §8f): the page reads
 * the fragment's token, drops it from the address bar and changes the address at once — in any
 * browser, signed in or not.
 */
export function ConfirmEmailChangeRoute() {
  useDocumentTitle('Confirm your new email address · Interlock');
  const token = useFragmentToken();
  if (token === '') {
    return (
      <Stack>
        <Title order={1} size="h3">
          Confirm your new email address
        </Title>
        <Text>
          Open this page from the link we emailed to your new address. Signed in, you can ask for
          the change in Settings → Profile.
        </Text>
        <Anchor component={Link} to="/settings/profile">
          Settings → Profile
        </Anchor>
      </Stack>
    );
  }
  return <Confirm key={token} token={token} />;
}

function Confirm({ token }: { token: string }) {
  const confirm = useConfirmEmailChange();
  const sent = useRef(false);
  useEffect(() => {
    // Once per link, also when the effect runs twice in development.
    if (sent.current) return;
    sent.current = true;
    confirm.mutate(token);
  }, [token, confirm]);
  if (confirm.isSuccess) {
    return (
      <Stack>
        <Title order={1} size="h3">
          Your email address is changed
        </Title>
        <Text>
          Sign in with the new address from now on; it is verified. We told your former address
          about the change.
        </Text>
        <Button component={Link} to="/">
          Open Interlock
        </Button>
      </Stack>
    );
  }
  if (confirm.isError) {
    return (
      <Stack>
        <Title order={1} size="h3">
          Your email address is not changed
        </Title>
        <FormError error={confirm.error} />
        <Anchor component={Link} to="/settings/profile">
          Ask again in Settings → Profile
        </Anchor>
      </Stack>
    );
  }
  return (
    <Stack align="center">
      <Loader aria-label="Changing your email address" />
      <Text>Changing your email address…</Text>
    </Stack>
  );
}
