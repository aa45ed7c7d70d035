import { Alert, Anchor, Button, Divider, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDocumentTitle } from '@mantine/hooks';
import { Link, useNavigate, useParams } from 'react-router';
import { forgetInvitationProof, useInvitationProof } from '../utils/invitation-proof';
import { CenteredLoader } from '@/shared/components/centered-loader';
import { FormError } from '@/shared/components/form-error';
import { NewPasswordFields, newPasswordError } from '@/shared/components/new-password';
import { QueryError } from '@/shared/components/query-error';
import { useMe, type Account } from '@/shared/sign-in/me.queries';
import { notifyError } from '@/shared/utils/notify';
import {
  useAcceptInvitation,
  useInvitationPreview,
  useJoinInvitation,
  useSignOut,
} from '../api/auth.queries';
import { whenSettled } from '@/shared/utils/when-settled';

/**
 * The link an inviter sends: `/invitations/<token>`. A signed-in person joins with the account
 * they have (the organisation is added to it); someone without one creates it here; someone
 * with one who is signed out signs in first and comes back.
 */
export function AcceptInvitationRoute() {
  useDocumentTitle('Join your team · Interlock');
  const { token = '' } = useParams();
  const me = useMe();
  const preview = useInvitationPreview(token);
  // The emailed link's fragment proves the address (SPEC §8f): joining or accepting verifies it.
  const emailProof = useInvitationProof(token);

  if (me.isPending || preview.isPending) return <CenteredLoader label="Opening your invitation" />;
  if (me.isError) return <QueryError error={me.error} onRetry={() => void me.refetch()} />;
  if (preview.isError)
    return <QueryError error={preview.error} onRetry={() => void preview.refetch()} />;
  if (preview.data === null) {
    return (
      <Stack>
        <Title order={1} size="h3">
          This invitation is no longer valid
        </Title>
        <Text size="sm">
          It was used, withdrawn or has expired (invitations last 7 days). Ask for a new one.
        </Text>
        <Anchor component={Link} to="/" size="sm">
          Go to Interlock
        </Anchor>
      </Stack>
    );
  }
  const offer = preview.data;
  return (
    <Stack>
      <Title order={1} size="h3">
        Join {offer.organisationName}
      </Title>
      <Text size="sm">
        You are invited as <strong>{offer.roleName}</strong>. The invitation was sent to{' '}
        <strong>{offer.email}</strong>.
      </Text>
      {me.data ? (
        <JoinSignedIn
          token={token}
          emailProof={emailProof}
          account={me.data}
          invitedEmail={offer.email}
        />
      ) : (
        <CreateAccount token={token} emailProof={emailProof} />
      )}
    </Stack>
  );
}

/** Signed in: one button adds the organisation to this account. */
function JoinSignedIn({
  token,
  emailProof,
  account,
  invitedEmail,
}: {
  token: string;
  emailProof: string;
  account: Account;
  invitedEmail: string;
}) {
  const navigate = useNavigate();
  const join = useJoinInvitation(token);
  const signOut = useSignOut();
  const same = account.user.email === invitedEmail;
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        You are signed in as {account.user.name} ({account.user.email}).
      </Text>
      {!same && (
        <Alert color="yellow" title="Another account">
          This invitation is for {invitedEmail}. Sign out, then sign in with that address to accept
          it.
        </Alert>
      )}
      <FormError error={join.error} />
      <Button
        fullWidth
        disabled={!same}
        loading={join.isPending}
        onClick={() =>
          whenSettled(join.mutateAsync(emailProof), () => {
            forgetInvitationProof();
            void navigate('/', { replace: true });
          })
        }
      >
        Join the organisation
      </Button>
      <Button
        variant="subtle"
        size="xs"
        onClick={() =>
          whenSettled(
            signOut.mutateAsync(),
            () => undefined,
            (error) => notifyError(error, 'Could not sign out'),
          )
        }
      >
        Sign out
      </Button>
    </Stack>
  );
}

/** Not signed in: create the account here, or sign in to the one you have and come back. */
function CreateAccount({ token, emailProof }: { token: string; emailProof: string }) {
  const navigate = useNavigate();
  const accept = useAcceptInvitation(token);
  const form = useForm({
    initialValues: { name: '', password: '' },
    validate: {
      name: (v) =>
        v.trim() === '' ? 'Enter your name' : v.length > 100 ? 'At most 100 characters' : null,
      password: newPasswordError,
    },
  });
  const signInLink = `/sign-in?next=${encodeURIComponent(`/invitations/${token}`)}`;
  return (
    <Stack>
      <Text size="sm">
        Already have an Interlock account with this address?{' '}
        <Anchor component={Link} to={signInLink}>
          Sign in to accept
        </Anchor>
      </Text>
      <Divider label="or create your account" labelPosition="center" />
      <form
        onSubmit={form.onSubmit((values) =>
          whenSettled(
            accept.mutateAsync({
              name: values.name.trim(),
              password: values.password,
              ...(emailProof === '' ? {} : { emailProof }),
            }),
            () => {
              forgetInvitationProof();
              void navigate('/', { replace: true });
            },
          ),
        )}
      >
        <Stack>
          <Title order={2} size="h4">
            Accept your invitation
          </Title>
          <Text size="sm" c="dimmed">
            Choose the name your colleagues will see and a password. You sign in with the email
            address the invitation was sent to.
          </Text>
          <TextInput
            label="Your name"
            autoComplete="name"
            required
            {...form.getInputProps('name')}
          />
          <NewPasswordFields password={form.getInputProps('password')} />
          <FormError error={accept.error} />
          <Button type="submit" loading={accept.isPending} fullWidth>
            Join the organisation
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}
