import { Alert, Anchor, Container } from '@mantine/core';
import { useRouteError } from 'react-router';
import { errorMessage } from '@/shared/utils/errors';

/** A page that failed to load (for example a new version was deployed: its chunk is gone). */
export function RouteError() {
  const error = useRouteError();
  return (
    <Container size="sm" py="xl">
      <Alert color="red" title="This page could not be shown" role="alert">
        {errorMessage(error)}{' '}
        <Anchor href={window.location.href} c="var(--mantine-color-error)" fw={600}>
          Reload the page
        </Anchor>
      </Alert>
    </Container>
  );
}
