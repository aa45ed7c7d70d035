import { HttpException } from '@nestjs/common';
import { ERROR_CODES, ERROR_MESSAGES, ErrorCode } from '@interlock/domain';

type FixedMessageCode = keyof typeof ERROR_MESSAGES & ErrorCode;

/**
 * The one exception type features throw: a stable code from the domain catalogue, its HTTP
 * status, and the message the client sees (the catalogue's exact text unless one is given).
 */
export class ApiError extends HttpException {
  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    const text = message ?? (ERROR_MESSAGES as Record<string, string>)[code];
    if (text === undefined) throw new Error(`ApiError ${code} needs a message`);
    super(text, ERROR_CODES[code]);
  }

  static of(code: FixedMessageCode): ApiError {
    return new ApiError(code);
  }
}
