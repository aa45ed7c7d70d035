import { ApiError } from './api-error';

/** What every generated operation resolves to (the client's default "fields" response style). */
interface OperationResult<TData> {
  data?: TData;
  error?: unknown;
  response?: Response;
}

/**
 * Awaits a generated operation and returns its data, or throws an `ApiError` with the API's
 * exact message. The generated functions never throw on an HTTP error by themselves, so every
 * call site goes through here: one place decides what an error is.
 */
export async function call<TData>(
  pending: Promise<OperationResult<TData>>,
): Promise<NonNullable<TData>> {
  let result: OperationResult<TData>;
  try {
    result = await pending;
  } catch (cause) {
    throw ApiError.network(cause);
  }
  if (result.error !== undefined || result.response === undefined || !result.response.ok) {
    throw ApiError.fromResponse(result.response, result.error);
  }
  return result.data as NonNullable<TData>;
}
