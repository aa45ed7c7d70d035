import type { Response } from 'express';
import { ErrorBody, ErrorCode, reasonPhrase } from '@interlock/domain';

/** Writes a SPEC §4 error body. Used by the exception filter and by the pre-routing middleware. */
export function sendError(
  res: Response,
  status: number,
  code: ErrorCode,
  message: string,
  requestId: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  const body: ErrorBody = { statusCode: status, error: reasonPhrase(status), code, message, requestId };
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.status(status).type('application/json').send(JSON.stringify(body));
}
