import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { FormError } from '@/shared/components/form-error';
import { useResendEmailVerification } from '../api/account.queries';
import { useMe } from '@/shared/sign-in/me.queries';

/**
 * Settings → Security's address: verified or not (SPEC §8f) and, while not, a way to get a
 * verification link. A verified address is what accepting invitations and email notifications wait for.
 */
export function EmailAddress() {
  const me = useMe();
  const resend = useResendEmailVerification();
  const user = me.data?.user;
  if (user === undefined) return null;
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="email-heading">
      <Stack gap="sm">
        <Title order={2} size="h4" id="email-heading">
          Email address
        </Title>
        <Group gap="sm">
          <Text style={{ overflowWrap: 'anywhere' }}>{user.email}</Text>
          {user.emailVerified ? (
            <Badge color="green" variant="light">
              Verified
            </Badge>
          ) : (
            <Badge color="orange" variant="light">
              Not verified
            </Badge>
          )}
        </Group>
        {!user.emailVerified && (
          <>
            <Text size="sm" c="dimmed">
              Verify it with a link we email to it: a verified address lets you accept invitations
              to other organisations and receive notifications by email.
            </Text>
            {resend.isSuccess ? (
              <Text size="sm" role="status">
                A verification link is on its way to {user.email}.
              </Text>
            ) : (
              <Group>
                <Button variant="light" loading={resend.isPending} onClick={() => resend.mutate()}>
                  Email me a verification link
                </Button>
              </Group>
            )}
            <FormError error={resend.error} />
          </>
        )}
      </Stack>
    </Paper>
  );
}
