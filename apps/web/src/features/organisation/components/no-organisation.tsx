import { Button, Center, Container, Paper, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { Account } from '@/shared/sign-in/me.queries';
import { CreateOrganisationModal } from './create-organisation-modal';

/** Signed in, but a member of no organisation (removed from the last one): create one, or wait for an invitation. */
export function NoOrganisation({
  account,
  onSignOut,
}: {
  account: Account;
  onSignOut: () => void;
}) {
  const [creating, { open, close }] = useDisclosure(false);
  return (
    <Center
      mih="100vh"
      bg="light-dark(var(--mantine-color-gray-0), var(--mantine-color-dark-8))"
      py="xl"
      component="main"
    >
      <Container size={480} w="100%">
        <Paper withBorder shadow="sm" p="xl" radius="md">
          <Stack>
            <Title order={1} size="h3">
              You are not a member of any organisation
            </Title>
            <Text size="sm">
              Signed in as {account.user.name} ({account.user.email}). Open an invitation link a
              colleague sends you, or create an organisation of your own.
            </Text>
            <Button onClick={open}>Create organisation</Button>
            <Button variant="subtle" onClick={onSignOut}>
              Sign out
            </Button>
          </Stack>
        </Paper>
      </Container>
      <CreateOrganisationModal opened={creating} onClose={close} />
    </Center>
  );
}
