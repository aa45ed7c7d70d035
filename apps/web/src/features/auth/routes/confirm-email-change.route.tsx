import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useConfirmEmailChange } from '../api/email-change.queries';
import { EmailLinkPage, LinkUsedAtOnce } from '../components/email-link';

/**
 * The link emailed to a new address (`/confirm-email-change#<token>`, SPEC §8f): the page reads
 * the fragment's token, drops it from the address bar and changes the address at once — in any
 * browser, signed in or not.
 */
export function ConfirmEmailChangeRoute() {
  return (
    <EmailLinkPage
      title="Confirm your new email address"
      missing={
        <>
          <Text>
            Open this page from the link we emailed to your new address. Signed in, you can ask for
            the change in Settings → Profile.
          </Text>
          <Anchor component={Link} to="/settings/profile">
            Settings → Profile
          </Anchor>
        </>
      }
      opened={(token) => <Confirm token={token} />}
    />
  );
}

function Confirm({ token }: { token: string }) {
  const confirm = useConfirmEmailChange();
  return (
    <LinkUsedAtOnce
      token={token}
      use={confirm}
      doing="Changing your email address"
      doneTitle="Your email address is changed"
      done="Sign in with the new address from now on; it is verified. We told your former address about the change."
      failedTitle="Your email address is not changed"
      retry={{ to: '/settings/profile', label: 'Ask again in Settings → Profile' }}
    />
  );
}
