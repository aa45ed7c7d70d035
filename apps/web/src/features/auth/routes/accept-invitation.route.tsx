import { Button, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDocumentTitle } from '@mantine/hooks';
import { useNavigate, useParams } from 'react-router';
import { FormError } from '../../../shared/components/form-error';
import { useAcceptInvitation } from '../api/auth.queries';

/** The link an Owner sends: `/invitations/<token>`. */
export function AcceptInvitationRoute() {
  useDocumentTitle('Join your team · Interlock');
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const accept = useAcceptInvitation(token);
  const form = useForm({
    initialValues: { name: '', password: '' },
    validate: {
      name: (v) => (v.trim() === '' ? 'Enter your name' : v.length > 100 ? 'At most 100 characters' : null),
      password: (v) => (v.length < 8 ? 'At least 8 characters' : v.length > 200 ? 'At most 200 characters' : null),
    },
  });
  return (
    <form
      onSubmit={form.onSubmit((values) =>
        accept.mutate({ name: values.name.trim(), password: values.password }, { onSuccess: () => void navigate('/', { replace: true }) }),
      )}
    >
      <Stack>
        <Title order={1} size="h3">
          Accept your invitation
        </Title>
        <Text size="sm" c="dimmed">
          Choose the name your colleagues will see and a password. You sign in with the email address the invitation was sent to.
        </Text>
        <TextInput label="Your name" autoComplete="name" required {...form.getInputProps('name')} />
        <PasswordInput label="Password" description="At least 8 characters" autoComplete="new-password" required {...form.getInputProps('password')} />
        <FormError error={accept.error} />
        <Button type="submit" loading={accept.isPending} fullWidth>
          Join the organisation
        </Button>
      </Stack>
    </form>
  );
}
