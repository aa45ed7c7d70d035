import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  List,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDocumentTitle } from '@mantine/hooks';
import { useState } from 'react';
import { Link } from 'react-router';
import { FormError } from '@/shared/components/form-error';
import { PageHeader } from '@/shared/components/page-header';
import { QueryError } from '@/shared/components/query-error';
import { useMe } from '@/shared/sign-in/me.queries';
import { whenSettled } from '@/shared/utils/when-settled';
import { useChangeEmail, useUpdateProfile } from '../api/account.queries';

/** Settings → Profile (issue 33 §4): the person's name and email address, and where the rest is. */
export function ProfileRoute() {
  useDocumentTitle('Profile · Interlock');
  const me = useMe();
  const user = me.data?.user;
  return (
    <>
      <PageHeader
        title="Profile"
        description="Your name and email address, the same in every organisation you belong to."
      />
      <Stack gap="lg" maw={900}>
        <QueryError error={me.error} />
        {user && (
          <>
            <NameForm name={user.name} />
            <EmailForm email={user.email} verified={user.emailVerified} />
          </>
        )}
        <Paper withBorder p="lg" component="section" aria-labelledby="security-heading">
          <Stack gap="sm">
            <Title order={2} size="h4" id="security-heading">
              Signing in
            </Title>
            <Text size="sm" c="dimmed">
              Your password, two-factor sign-in and where you are signed in are in Settings →
              Security.
            </Text>
            <List size="sm">
              <List.Item>
                <Anchor component={Link} to="/settings/security#password-heading">
                  Change your password
                </Anchor>
              </List.Item>
              <List.Item>
                <Anchor component={Link} to="/settings/security#two-factor-heading">
                  Two-factor sign-in
                </Anchor>
              </List.Item>
              <List.Item>
                <Anchor component={Link} to="/settings/security#sessions-heading">
                  Where you are signed in
                </Anchor>
              </List.Item>
            </List>
          </Stack>
        </Paper>
      </Stack>
    </>
  );
}

function NameForm({ name }: { name: string }) {
  const update = useUpdateProfile();
  const form = useForm({
    initialValues: { name },
    validate: {
      name: (v) =>
        v.trim() === '' ? 'Enter your name' : v.length > 100 ? 'At most 100 characters' : null,
    },
  });
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="name-heading">
      <form onSubmit={form.onSubmit((values) => update.mutate(values.name))}>
        <Stack gap="md">
          <Title order={2} size="h4" id="name-heading">
            Name
          </Title>
          <TextInput
            label="Your name"
            description="As colleagues see it on decisions, assignments and the audit log."
            autoComplete="name"
            required
            maxLength={100}
            {...form.getInputProps('name')}
          />
          <FormError error={update.error} />
          {update.isSuccess && (
            <Alert color="green" variant="light" role="status" p="xs">
              Your name is saved.
            </Alert>
          )}
          <Button type="submit" loading={update.isPending} w="fit-content">
            Save name
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}

function EmailForm({ email, verified }: { email: string; verified: boolean }) {
  const change = useChangeEmail();
  const [sentTo, setSentTo] = useState<string>();
  const form = useForm({
    initialValues: { email: '', password: '' },
    validate: {
      email: (v) =>
        v.trim() === ''
          ? 'Enter the new address'
          : v.trim().toLowerCase() === email
            ? 'This is your address already'
            : null,
      password: (v) => (v === '' ? 'Enter your current password' : null),
    },
  });
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="profile-email-heading">
      <form
        onSubmit={form.onSubmit((values) =>
          whenSettled(
            change.mutateAsync({ email: values.email.trim(), password: values.password }),
            (answer) => {
              setSentTo(answer.email);
              form.reset();
            },
          ),
        )}
      >
        <Stack gap="md">
          <Title order={2} size="h4" id="profile-email-heading">
            Email address
          </Title>
          <Group gap="sm">
            <Text style={{ overflowWrap: 'anywhere' }}>{email}</Text>
            <Badge color={verified ? 'green' : 'orange'} variant="light">
              {verified ? 'Verified' : 'Not verified'}
            </Badge>
          </Group>
          <Text size="sm" c="dimmed">
            To change it, we email a link to the new address: the change happens when you open it,
            and we tell this address, with a way to undo it.
          </Text>
          <TextInput
            label="New email address"
            type="email"
            autoComplete="email"
            required
            maxLength={254}
            {...form.getInputProps('email')}
          />
          <PasswordInput
            label="Current password"
            autoComplete="current-password"
            required
            {...form.getInputProps('password')}
          />
          <FormError error={change.error} />
          {sentTo !== undefined && (
            <Alert color="blue" variant="light" role="status" p="xs">
              Check {sentTo}: we emailed it a link that changes your address (it works once, for 24
              hours). Until you open it, you keep {email}.
            </Alert>
          )}
          <Button type="submit" loading={change.isPending} w="fit-content">
            Email me a link
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}
