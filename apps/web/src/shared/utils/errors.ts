import { isApiError } from '@interlock/api-client';

/** What to show a person for a failure: the API's exact message, or a plain sentence. */
export function errorMessage(error: unknown): string {
  if (isApiError(error)) return error.message;
  if (error instanceof Error && error.message !== '') return error.message;
  return 'Something went wrong.';
}
