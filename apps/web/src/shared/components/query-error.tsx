import { Alert, Button, Group, Text } from '@mantine/core';
import { errorMessage } from '../utils/errors';

/** A read that failed: the API's exact message and a way to try again. */
export function QueryError({ error, onRetry, title = 'Could not load this' }: { error: unknown; onRetry?: () => void; title?: string }) {
  return (
    <Alert color="red" title={title} role="alert" variant="light">
      <Group justify="space-between" align="center">
        <Text size="sm">{errorMessage(error)}</Text>
        {onRetry !== undefined && (
          <Button size="xs" variant="white" color="red" onClick={onRetry}>
            Try again
          </Button>
        )}
      </Group>
    </Alert>
  );
}
