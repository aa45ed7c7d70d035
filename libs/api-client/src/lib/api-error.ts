/**
 * An error answered by the API (or the network), carrying the API's exact message: the
 * dashboard shows `message` as it is (SPEC §4 texts are part of the contract).
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    /** The HTTP status; 0 when the service could not be reached. */
    readonly status: number,
    /** The stable error code (`NOT_FOUND`, `CONFLICT`…); `NETWORK_ERROR` or `HTTP_ERROR` when the body was not the API's. */
    readonly code: string,
    message: string,
    readonly requestId: string | undefined,
  ) {
    super(message);
  }

  /** The error for a response that was not 2xx, from its (already parsed) body. */
  static fromResponse(response: Response | undefined, body: unknown): ApiError {
    const status = response?.status ?? 0;
    if (isErrorBody(body)) return new ApiError(status, body.code, body.message, body.requestId);
    const requestId = response?.headers.get('x-request-id') ?? undefined;
    const text =
      typeof body === 'string' && body.trim() !== '' && body.length < 300 ? body.trim() : undefined;
    return new ApiError(
      status,
      'HTTP_ERROR',
      text ?? `The service answered ${status} ${response?.statusText ?? ''}`.trim() + '.',
      requestId,
    );
  }

  static network(cause: unknown): ApiError {
    const error = new ApiError(
      0,
      'NETWORK_ERROR',
      'Cannot reach the Interlock service. Check your connection and try again.',
      undefined,
    );
    (error as { cause?: unknown }).cause = cause;
    return error;
  }
}

interface ErrorBodyShape {
  statusCode: number;
  code: string;
  message: string;
  requestId?: string;
}

function isErrorBody(body: unknown): body is ErrorBodyShape {
  if (typeof body !== 'object' || body === null) return false;
  const b = body as Record<string, unknown>;
  return (
    typeof b.code === 'string' && typeof b.message === 'string' && typeof b.statusCode === 'number'
  );
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}
