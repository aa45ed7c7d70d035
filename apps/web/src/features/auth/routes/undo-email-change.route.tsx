import { Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link } from 'react-router';
import { FormError } from '@/shared/components/form-error';
import {
  NewPasswordFields,
  newPasswordError,
  repeatedPasswordError,
} from '@/shared/components/new-password';
import { useUndoEmailChange } from '../api/email-change.queries';
import { EmailLinkPage, LinkOutcome } from '../components/email-link';

/**
 * "This wasn't me" (`/undo-email-change#<token>`, SPEC §8f): the link emailed to the former
 * address after a change. Whoever changed it knew the password, so the page asks for a new one:
 * the address comes back, the password is replaced and every device is signed out.
 */
export function UndoEmailChangeRoute() {
  return (
    <EmailLinkPage
      title="Undo an email address change"
      missing={
        <>
          <Text>Open this page from the link we emailed to your former address.</Text>
          <Anchor component={Link} to="/sign-in">
            Sign in
          </Anchor>
        </>
      }
      opened={(token) => <Undo token={token} />}
    />
  );
}

function Undo({ token }: { token: string }) {
  const undo = useUndoEmailChange();
  const form = useForm({
    initialValues: { password: '', repeat: '' },
    validate: {
      password: newPasswordError,
      repeat: (v, values) => repeatedPasswordError(v, values.password),
    },
  });
  if (undo.isSuccess) {
    return (
      <LinkOutcome title="Your email address is back">
        <Text>
          Your account has its former address again, with the new password. Every device that was
          signed in has been signed out: sign in with the new password.
        </Text>
        <Button component={Link} to="/sign-in">
          Sign in
        </Button>
      </LinkOutcome>
    );
  }
  return (
    <form onSubmit={form.onSubmit((values) => undo.mutate({ token, password: values.password }))}>
      <Stack>
        <Title order={1} size="h3">
          This wasn&apos;t me: undo the change
        </Title>
        <Text size="sm">
          Whoever changed your address knew your password. Choose a new one: your account gets its
          former address back and everyone is signed out.
        </Text>
        <NewPasswordFields
          label="New password"
          password={form.getInputProps('password')}
          repeat={form.getInputProps('repeat')}
        />
        <FormError error={undo.error} />
        <Button type="submit" loading={undo.isPending} fullWidth>
          Restore my address
        </Button>
      </Stack>
    </form>
  );
}
