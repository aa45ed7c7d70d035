import { Anchor, Button, Text } from '@mantine/core';
import { Link } from 'react-router';
import { FormError } from '@/shared/components/form-error';
import { useVerifyEmail } from '../api/email-verification.queries';
import { EmailLinkPage, LinkOutcome, LinkPending, useLinkAtOnce } from '../components/email-link';

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
  useLinkAtOnce(token, verify.mutate);
  if (verify.isSuccess) {
    return (
      <LinkOutcome title="Your email address is verified">
        <Text>
          You can now accept invitations to other organisations and receive notifications.
        </Text>
        <Button component={Link} to="/">
          Open Interlock
        </Button>
      </LinkOutcome>
    );
  }
  if (verify.isError) {
    return (
      <LinkOutcome title="Your email address is not verified">
        <FormError error={verify.error} />
        <Anchor component={Link} to="/settings/security">
          Ask for a new link in Settings → Security
        </Anchor>
      </LinkOutcome>
    );
  }
  return <LinkPending doing="Verifying your email address" />;
}
