import { Alert, Button, Container, Group, Stack, Title } from '@mantine/core';
import { useMyTwoFactor } from '../api/account.queries';
import { TwoFactor } from './two-factor';

/**
 * What a member sees instead of the organisation while it requires two-factor sign-in and theirs
 * is off (SPEC §8f: every request for it answers 403 TWO_FACTOR_ENROLMENT_REQUIRED): the API's
 * sentence, the set-up, and sign-out. Once it is on — and the recovery codes are kept — Continue
 * reads the sign-in again and the organisation opens.
 */
export function TwoFactorEnrolment({
  message,
  onContinue,
  onSignOut,
}: {
  message: string;
  onContinue: () => void;
  onSignOut: () => void;
}) {
  const enabled = useMyTwoFactor().data?.enabled === true;
  return (
    <Container size="sm" py="xl">
      <Stack gap="lg">
        <Title order={1} size="h2">
          Set up two-factor sign-in
        </Title>
        <Alert color="yellow" title="Two-factor sign-in is required">
          {message}
        </Alert>
        <TwoFactor />
        <Group justify="space-between">
          <Button variant="default" onClick={onSignOut}>
            Sign out
          </Button>
          {enabled && <Button onClick={onContinue}>Continue to Interlock</Button>}
        </Group>
      </Stack>
    </Container>
  );
}
