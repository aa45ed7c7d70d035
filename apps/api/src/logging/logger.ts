import type { LoggerService } from '@nestjs/common';
import pino, { DestinationStream, Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import type { RequestHandler } from 'express';
import type { AppConfig } from '../config/app-config';
import { requestIdOf } from '../http/request-id.middleware';

/** Paths pino censors wherever they appear in a log line: credentials never reach the logs. */
export const REDACTED_PATHS = [
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["proxy-authorization"]',
  'res.headers["set-cookie"]',
  'password',
  '*.password',
  '*.*.password',
  'req.body.password',
  'apiKey',
  'key',
  '*.key',
];

/**
 * Errors as pino serialises them, less what can hold secrets: a failed query's parameters
 * (password hashes, tokens) and text, and the driver's detail (`Key (email)=(…)`).
 */
export function serializeError(error: unknown): Record<string, unknown> {
  const serialized = pino.stdSerializers.err(error as Error) as unknown as Record<string, unknown>;
  delete serialized.parameters;
  delete serialized.query;
  const driverError = serialized.driverError as Record<string, unknown> | undefined;
  if (driverError && typeof driverError === 'object') {
    serialized.driverError = { code: driverError.code, message: driverError.message, severity: driverError.severity };
  }
  return serialized;
}

export function createLogger(config: AppConfig, destination?: DestinationStream): Logger {
  return pino(
    {
      level: config.logLevel,
      serializers: { err: serializeError },
      base: { service: 'interlock-api' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}

/** Path segments that are secrets themselves (an invitation token) never reach a log line. */
export function redactUrl(url: string): string {
  // Case-insensitive, as Express routes are.
  return url.replace(/^(\/api\/invitations\/)[^/?#]+(\/accept)/i, '$1[redacted]$2');
}

/** One structured line per request: request id, method, route, status and duration. */
export function httpLogger(logger: Logger): RequestHandler {
  return pinoHttp({
    logger,
    genReqId: (req) => requestIdOf(req),
    customAttributeKeys: { responseTime: 'durationMs' },
    serializers: {
      req: (req: { method: string; url: string; headers: Record<string, unknown>; remoteAddress?: string }) => ({
        method: req.method,
        url: redactUrl(req.url),
        headers: req.headers,
        remoteAddress: req.remoteAddress,
      }),
      res: (res: { statusCode: number; headers: Record<string, unknown> }) => ({
        statusCode: res.statusCode,
        headers: res.headers,
      }),
    },
    customProps: (req) => {
      const route = (req as { route?: { path?: unknown } }).route?.path;
      return typeof route === 'string'
        ? { requestId: requestIdOf(req), route }
        : { requestId: requestIdOf(req) };
    },
    customLogLevel: (_req, res, err) =>
      err !== undefined || res.statusCode >= 500 ? 'warn' : 'info',
    customSuccessMessage: (req, res) => `${req.method} ${res.statusCode}`,
    customErrorMessage: (req, res) => `${req.method} ${res.statusCode}`,
    // Unexpected errors are logged once, by the exception filter, with their stack.
    customErrorObject: (_req, _res, _err, val) => ({ ...val, err: undefined }),
  }) as unknown as RequestHandler;
}

/** Nest's own messages (bootstrap, lifecycle) go through the same JSON logger. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}
  log(message: unknown, context?: string) {
    this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string) {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string) {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string) {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string) {
    this.logger.trace({ context }, String(message));
  }
}
