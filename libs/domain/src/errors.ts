/**
 * The error catalogue of SPEC §4: every error the API answers has a stable `code` that SDKs
 * switch on, an HTTP status, and (where the contract fixes one) an exact message.
 */
export const ERROR_CODES = {
  MISSING_API_KEY: 401,
  INVALID_API_KEY: 401,
  API_KEY_EXPIRED: 401,
  SIGN_IN_REQUIRED: 401,
  INVALID_CREDENTIALS: 401,
  TWO_FACTOR_REQUIRED: 401,
  SSO_SIGN_IN_FAILED: 401,
  MESSAGES_ALLOWANCE_EXHAUSTED: 402,
  AGENT_HOURS_ALLOWANCE_EXHAUSTED: 402,
  SESSION_STORAGE_EXHAUSTED: 402,
  ACTIVE_SESSIONS_EXHAUSTED: 402,
  PLAN_REQUIRED: 402,
  HUMANS_ONLY: 403,
  MISSING_PERMISSION: 403,
  FORBIDDEN: 403,
  CSRF_REJECTED: 403,
  WRONG_PASSWORD: 403,
  INVALID_TWO_FACTOR_CODE: 403,
  EMAIL_NOT_VERIFIED: 403,
  SSO_REQUIRED: 403,
  TWO_FACTOR_ENROLMENT_REQUIRED: 403,
  SIGNUP_CLOSED: 403,
  VALIDATION_FAILED: 400,
  INVALID_TOKEN: 400,
  SSO_DISCOVERY_FAILED: 400,
  NOT_FOUND: 404,
  SSO_NOT_CONFIGURED: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  DOMAIN_NOT_VERIFIED: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** Exact texts. Those marked (S) in SPEC §4 come from the source document and never change. */
export const ERROR_MESSAGES = {
  MISSING_API_KEY: 'Missing x-api-key header.',
  INVALID_API_KEY: 'Invalid API key.',
  API_KEY_EXPIRED: 'API Key has expired',
  HUMANS_ONLY: 'This endpoint is reserved for humans.',
  PLAN_REQUIRED: 'The audit log API requires the Pro plan.',
  SIGN_IN_REQUIRED: 'Sign-in required.',
  TWO_FACTOR_REQUIRED:
    'Two-factor sign-in is on for this account: enter the 6-digit code from your authenticator app, or one of your recovery codes.',
  TWO_FACTOR_ENROLMENT_REQUIRED:
    'This organisation requires two-factor sign-in: turn it on for your account in Settings → Security to act for it.',
  NOT_FOUND: 'Not found.',
  METHOD_NOT_ALLOWED: 'This method is not allowed here; the Allow header lists those that are.',
  INTERNAL_ERROR: 'Internal server error.',
  SERVICE_UNAVAILABLE: 'The database is unavailable. Try again shortly.',
  RATE_LIMITED: 'Too many requests. Try again later.',
  PAYLOAD_TOO_LARGE: 'Request body exceeds the 1 MiB limit.',
  UNSUPPORTED_MEDIA_TYPE: 'Request body must be application/json.',
  MALFORMED_JSON: 'body: is not valid JSON.',
} as const satisfies Partial<Record<ErrorCode | 'MALFORMED_JSON', string>>;

/** 403 text for a member who lacks a permission (SPEC §3). */
export function missingPermissionMessage(permission: string): string {
  return `Missing permission: ${permission}.`;
}

const REASON_PHRASES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** The `error` field of an error body: the status's reason phrase. */
export function reasonPhrase(status: number): string {
  return REASON_PHRASES[status] ?? (status >= 500 ? 'Server Error' : 'Client Error');
}

/** The JSON body of every error response (SPEC §4). */
export interface ErrorBody {
  statusCode: number;
  error: string;
  code: ErrorCode;
  message: string;
  requestId: string;
}

type FixedMessageCode = keyof typeof ERROR_MESSAGES & ErrorCode;

/**
 * The one error the service's features throw: a code of the catalogue, its status, and the
 * message the client sees (the catalogue's exact text unless one is given), with any headers the
 * answer needs (`Retry-After`). Framework-free: the API's exception filter turns it into the
 * SPEC §4 body; the MCP backend into a tool error.
 */
export class DomainError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    const text = message ?? (ERROR_MESSAGES as Record<string, string>)[code];
    if (text === undefined) throw new Error(`DomainError ${code} needs a message`);
    super(text);
    this.name = 'DomainError';
    this.status = ERROR_CODES[code];
  }

  static of(code: FixedMessageCode): DomainError {
    return new DomainError(code);
  }
}
