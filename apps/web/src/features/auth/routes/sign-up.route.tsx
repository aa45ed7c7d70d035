import { Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDocumentTitle } from '@mantine/hooks';
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
          () => void navigate('/integrations/api-keys?welcome=1', { replace: true }),
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
