import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useVerifyEmail } from '../api/email-verification.queries';
import { EmailLinkPage, LinkUsedAtOnce } from '../components/email-link';

/**
 * The emailed verification link's page (`/verify-email#<token>`, SPEC §8f). The token is in the
 * URL's fragment, which the browser never sends anywhere; the page reads it, drops it from the
 * address bar, and verifies at once — in any browser, signed in or not.
 */
export function VerifyEmailRoute() {
  return (
    <EmailLinkPage
      title="Verify your email address"
      missing={
        <>
          <Text>
            Open this page from the link we emailed you. Signed in, you can ask for a link in
            Settings → Security.
          </Text>
          <Anchor component={Link} to="/sign-in">
            Sign in
          </Anchor>
        </>
      }
      opened={(token) => <Verify token={token} />}
    />
  );
}

function Verify({ token }: { token: string }) {
  const verify = useVerifyEmail();
  return (
    <LinkUsedAtOnce
      token={token}
      use={verify}
      doing="Verifying your email address"
      doneTitle="Your email address is verified"
      done="You can now accept invitations to other organisations and receive notifications."
      failedTitle="Your email address is not verified"
      retry={{ to: '/settings/security', label: 'Ask for a new link in Settings → Security' }}
    />
  );
}
