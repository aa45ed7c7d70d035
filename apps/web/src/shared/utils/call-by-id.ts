import { call } from '@interlock/api-client';

/**
 * A generated operation on one resource by its id (`DELETE /api/api-keys/{id}`, …) as a mutation
 * function: the id in, the operation's data out, or the API's error (`call`).
 */
export function callById<TData>(
  operation: (options: {
    path: { id: string };
  }) => Promise<{ data?: TData; error?: unknown; response?: Response }>,
): (id: string) => Promise<NonNullable<TData>> {
  return (id) => call(operation({ path: { id } }));
}
