import { Center, Container, Paper, Stack } from '@mantine/core';
import { Outlet } from 'react-router';
import { Logo } from './logo';

/** Sign in, sign up, accept an invitation: a centred card. */
export function PublicLayout() {
  return (
    <Center
      mih="100vh"
      bg="light-dark(var(--mantine-color-gray-0), var(--mantine-color-dark-8))"
      py="xl"
    >
      <Container size={440} w="100%">
        <Stack gap="lg">
          <Center>
            <Logo />
          </Center>
          <Paper withBorder shadow="sm" p="xl" radius="md" component="main">
            <Outlet />
          </Paper>
        </Stack>
      </Container>
    </Center>
  );
}
