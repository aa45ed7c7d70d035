import { Alert } from '@mantine/core';
import { errorMessage } from '../utils/errors';

/** A mutation's failure inside a form or modal: the API's exact message, announced. */
export function FormError({ error }: { error: unknown }) {
  if (error === null || error === undefined) return null;
  return (
    <Alert color="red" variant="light" role="alert" p="xs">
      {errorMessage(error)}
    </Alert>
  );
}
