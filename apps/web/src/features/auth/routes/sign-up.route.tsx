import { Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDocumentTitle } from '@mantine/hooks';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { FormError } from '@/shared/components/form-error';
import { NewPasswordFields, newPasswordError } from '@/shared/components/new-password';
import { useSignUp } from '../api/auth.queries';
import { RedirectIfSignedIn } from '../components/redirect-if-signed-in';
import { whenSettled } from '@/shared/utils/when-settled';

export function SignUpRoute() {
  useDocumentTitle('Create an organisation · Interlock');
  const navigate = useNavigate();
  const signUp = useSignUp();
  // Where the server confirms sign-ups by email, the address the link went to.
  const [linkSentTo, setLinkSentTo] = useState<string | null>(null);
  const form = useForm({
    initialValues: { name: '', email: '', password: '', organisationName: '' },
    validate: {
      name: (v) =>
        v.trim() === '' ? 'Enter your name' : v.length > 100 ? 'At most 100 characters' : null,
      email: (v) => (/^\S+@\S+\.\S+$/.test(v.trim()) ? null : 'Enter a valid email address'),
      password: newPasswordError,
      organisationName: (v) =>
        v.trim() === ''
          ? 'Name your organisation'
          : v.length > 100
            ? 'At most 100 characters'
            : null,
    },
  });
  if (linkSentTo !== null) return <CheckYourEmail email={linkSentTo} />;
  return (
    <form
      onSubmit={form.onSubmit((values) =>
        whenSettled(
          signUp.mutateAsync({
            name: values.name.trim(),
            email: values.email.trim(),
            password: values.password,
            organisationName: values.organisationName.trim(),
          }),
          (answer) => {
            if ('organisation' in answer)
              void navigate('/integrations/api-keys?welcome=1', { replace: true });
            else setLinkSentTo(answer.email);
          },
        ),
      )}
    >
      {signUp.isIdle && <RedirectIfSignedIn />}
      <Stack>
        <Title order={1} size="h3">
          Create your organisation
        </Title>
        <Text size="sm" c="dimmed">
          You become its Owner, on the Free plan. Invite colleagues afterwards.
        </Text>
        <TextInput label="Your name" autoComplete="name" required {...form.getInputProps('name')} />
        <TextInput
          label="Work email"
          type="email"
          autoComplete="email"
          required
          {...form.getInputProps('email')}
        />
        <NewPasswordFields password={form.getInputProps('password')} />
        <TextInput
          label="Organisation name"
          autoComplete="organization"
          required
          {...form.getInputProps('organisationName')}
        />
        <FormError error={signUp.error} />
        <Button type="submit" loading={signUp.isPending} fullWidth>
          Create organisation
        </Button>
        <Text size="sm" ta="center">
          Already have an account?{' '}
          <Anchor component={Link} to="/sign-in">
            Sign in
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}

/** Sign-up confirmed by email (SPEC §8f): the same page whether or not the address had an account. */
function CheckYourEmail({ email }: { email: string }) {
  return (
    <Stack>
      <Title order={1} size="h3">
        Check your email
      </Title>
      <Text>
        We sent an email to <strong>{email}</strong>. Open the link in it to create your account and
        your organisation; it works for 24 hours.
      </Text>
      <Text size="sm" c="dimmed">
        If this address already has an Interlock account, the email says so instead, and no new
        account is made. Nothing arrived? Check your spam folder, or sign up again.
      </Text>
      <Anchor component={Link} to="/sign-in">
        Back to sign in
      </Anchor>
    </Stack>
  );
}
