import type { CreatedInvitationResponse } from '@interlock/api-client';
import {
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useId, useState } from 'react';
import { FormError } from '@/shared/components/form-error';
import { dateTime } from '@/shared/utils/format';
import { useCreateInvitation } from '../api/members.queries';
import { whenSettled } from '@/shared/utils/when-settled';

export function invitationLink(token: string): string {
  return `${window.location.origin}/invitations/${encodeURIComponent(token)}`;
}

/** Invite by email with a role; the one-time link is shown once, to send to the invitee. */
export function InviteMemberForm({
  roleOptions,
}: {
  roleOptions: { value: string; label: string }[];
}) {
  const create = useCreateInvitation();
  const titleId = useId();
  const [created, setCreated] = useState<CreatedInvitationResponse | null>(null);
  const form = useForm({
    initialValues: { email: '', roleId: roleOptions[0]?.value ?? '' },
    validate: {
      email: (v) => (/^\S+@\S+\.\S+$/.test(v.trim()) ? null : 'Enter a valid email address'),
      roleId: (v) => (v === '' ? 'Choose a role' : null),
    },
  });
  return (
    <Paper withBorder p="lg">
      <Stack>
        <Title order={2} size="h4" id={titleId}>
          Invite a member
        </Title>
        <form
          aria-labelledby={titleId}
          onSubmit={form.onSubmit((values) =>
            whenSettled(
              create.mutateAsync({ email: values.email.trim(), roleId: values.roleId }),
              (invitation) => {
                setCreated(invitation);
                form.setFieldValue('email', '');
              },
            ),
          )}
        >
          <Group align="flex-end" wrap="wrap">
            <TextInput
              label="Email"
              type="email"
              required
              w={280}
              {...form.getInputProps('email')}
            />
            <Select
              label="Role"
              required
              w={220}
              allowDeselect={false}
              data={roleOptions}
              {...form.getInputProps('roleId')}
            />
            <Button type="submit" loading={create.isPending}>
              Create invitation
            </Button>
          </Group>
        </form>
        <FormError error={create.error} />
        {created && (
          <Alert
            color="teal"
            variant="light"
            title={`Invitation for ${created.email} created`}
            withCloseButton
            closeButtonLabel="Dismiss"
            onClose={() => setCreated(null)}
          >
            <Stack gap="xs">
              <Text size="sm">
                Send this link to {created.email}. It is shown only now and works once, until{' '}
                {dateTime(created.expiresAt)}.
              </Text>
              <Code block aria-label="Invitation link" style={{ wordBreak: 'break-all' }}>
                {invitationLink(created.token)}
              </Code>
              <CopyButton value={invitationLink(created.token)}>
                {({ copied, copy }) => (
                  <Button onClick={copy} w="fit-content" color={copied ? 'teal' : 'blue'}>
                    {copied ? 'Copied' : 'Copy link'}
                  </Button>
                )}
              </CopyButton>
            </Stack>
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
