import { isApiError } from '@interlock/api-client';
import { Alert, Button, Group, Text } from '@mantine/core';
import { errorMessage } from '../utils/errors';

/** Whether trying the same read again could answer differently: not for a 4xx such as 404 or 403 (but 408 and 429 pass). */
function retryable(error: unknown): boolean {
  if (!isApiError(error)) return true;
  return !(
    error.status >= 400 &&
    error.status < 500 &&
    error.status !== 408 &&
    error.status !== 429
  );
}

/** A read that failed: the API's exact message, and a way to try again when that could help. */
export function QueryError({
  error,
  onRetry,
  title = 'Could not load this',
}: {
  error: unknown;
  onRetry?: () => void;
  title?: string;
}) {
  return (
    <Alert color="red" title={title} role="alert" variant="light">
      <Group justify="space-between" align="center">
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {errorMessage(error)}
        </Text>
        {onRetry !== undefined && retryable(error) && (
          <Button size="xs" variant="white" color="red" onClick={onRetry}>
            Try again
          </Button>
        )}
      </Group>
    </Alert>
  );
}
