import type { LoggerService } from '@nestjs/common';
import pino, { DestinationStream, Logger } from 'pino';
import type PinoPretty from 'pino-pretty';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AppConfig } from '../config/app-config';
import { nodeRequest, routePatternOf } from '../http/platform';
import { requestIdOf, requestStateOf, type RequestState } from '../http/request-state';
import { traceFields, tracingEnabled } from '../tracing/spans';
import { stdoutDestination, type LineBatchingDestination } from './log-destination.util';
import { onFirstUse } from '../loading/on-first-use.util';
import { JsonBytes } from './json-bytes.util';

/** Loaded only for a log read by a person (LOG_FORMAT=pretty, or a terminal): JSON lines never need it (issue 28). */
const pinoPretty = onFirstUse<typeof PinoPretty>('pino-pretty');

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
    serialized.driverError = {
      code: driverError.code,
      message: driverError.message,
      severity: driverError.severity,
    };
  }
  return serialized;
}

/** Whether the log is for a person: `LOG_FORMAT=pretty`, or `auto` on a terminal. */
export function isPrettyLog(
  config: Pick<AppConfig, 'logFormat'>,
  stdout: { isTTY?: boolean } = process.stdout,
): boolean {
  return config.logFormat === 'pretty' || (config.logFormat === 'auto' && stdout.isTTY === true);
}

/**
 * Lines a person reads: time, level, message, then the fields; the `req` and `res` objects of
 * request lines are folded into the message (`GET /api/interrupts 201 12ms`). Written
 * synchronously, like the JSON log.
 */
export function prettyDestination(destination?: DestinationStream): DestinationStream {
  return pinoPretty()({
    sync: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,service,context,req,res',
    messageFormat: (log, messageKey) => {
      const req = log.req as { method?: string; url?: string } | undefined;
      const res = log.res as { statusCode?: number } | undefined;
      const message = String(log[messageKey] ?? '');
      if (req?.url === undefined || res?.statusCode === undefined) return message;
      return `${req.method} ${req.url} ${res.statusCode}${typeof log.durationMs === 'number' ? ` ${log.durationMs}ms` : ''}`;
    },
    ...(destination === undefined
      ? {}
      : { destination: destination as unknown as NodeJS.WritableStream }),
  });
}

let timeMs = -1;
let timeField = '';
let secondMs = -1;
let secondText = '';
let secondBytes: Uint8Array = new Uint8Array(0);

/**
 * Keeps the time field's text up to the second of `now` (`,"time":"2026-11-27T15:04:05.`,
 * toISOString's text before the milliseconds, as text and as bytes), made anew once a second;
 * returns `now`'s milliseconds.
 */
function keepSecond(now: number): number {
  const ms = now % 1000;
  if (now - ms !== secondMs) {
    secondMs = now - ms;
    secondText = `,"time":"${new Date(secondMs).toISOString().slice(0, 20)}`;
    secondBytes = JsonBytes.piece(secondText);
  }
  return ms;
}

/**
 * pino's `isoTime` field (`,"time":"2026-11-27T15:04:05.678Z"`), written once per millisecond:
 * the lines of one millisecond share it, and its text up to the second is made once a second
 * (a `Date` and `toISOString` a line were a few per cent of `GET /health/live`'s CPU at `info`,
 * issue 28; under load nearly every line starts a new millisecond).
 */
export function isoTime(): string {
  const now = Date.now();
  if (now !== timeMs) {
    timeMs = now;
    const ms = keepSecond(now);
    timeField = `${secondText}${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z"`;
  }
  return timeField;
}

const TIME_END = JsonBytes.piece('Z"');

/** `isoTime`'s field written as bytes (the request line's): the milliseconds as three digits, no string. */
function writeIsoTime(out: JsonBytes): void {
  const ms = keepSecond(Date.now());
  out.raw(secondBytes);
  out.byte(0x30 + Math.floor(ms / 100));
  out.byte(0x30 + (Math.floor(ms / 10) % 10));
  out.byte(0x30 + (ms % 10));
  out.raw(TIME_END);
}

/** A line's level field: its label (`"level":"info"`), not pino's number. */
const levelField = (label: string) => ({ level: label });

/** The fields every line of the service's log starts with (pino's `base`). */
const BASE = { service: 'interlock-api' } as const;

/**
 * Where a logger made by `createLogger` writes, and what it adds to a line, for the request line
 * that `httpLogger` writes beside it (the same stream, so lines stay in order).
 */
interface LineSink {
  readonly stream: DestinationStream;
  /** `,"service":"interlock-api"`: the base fields, as pino writes them after `time`. */
  readonly baseFields: string;
  /** With traces on, a line's trace and span ids (pino's `mixin`). */
  readonly mixin: (() => Record<string, unknown>) | undefined;
}

const lineSinks = new WeakMap<Logger, LineSink>();

export function createLogger(config: AppConfig, destination?: DestinationStream): Logger {
  const pretty = destination === undefined ? isPrettyLog(config) : config.logFormat === 'pretty';
  const stream = pretty ? prettyDestination(destination) : (destination ?? stdoutDestination());
  // With traces on, every line written within a trace carries its trace and span ids.
  const mixin = tracingEnabled() ? traceFields : undefined;
  const logger = pino(
    {
      level: config.logLevel,
      serializers: { err: serializeError },
      base: BASE,
      timestamp: isoTime,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      formatters: { level: levelField },
      ...(mixin === undefined ? {} : { mixin }),
    },
    stream,
  );
  lineSinks.set(logger, { stream, baseFields: `,${JSON.stringify(BASE).slice(1, -1)}`, mixin });
  return logger;
}

/** Query parameters whose values are credentials by their name, whatever the value looks like. */
const SECRET_PARAMETER = /key|token|secret|passw|pwd|auth|session|cookie|credential|signature/i;
const REDACTED = '[redacted]';

/**
 * A path segment after `invitations/` that is not a UUID (an invitation's id is not a secret,
 * its token is): the API's `/api/invitations/<token>/…` and the dashboard's page
 * `/invitations/<token>`, wherever it appears — in the path, in a `next=` value, in a Referer.
 */
const INVITATION_TOKEN_SEGMENT =
  /(\/invitations\/)(?![0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?:[/?#&]|$))[^/?#&]+/gi;
/** What an invitation or password-reset token looks like (32 random bytes, base64url), wherever it appears. */
const TOKEN_LIKE = /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g;

/**
 * A request URL as it may be logged: credentials that arrive in it — by mistake or by attack —
 * never reach a log line. Redacts invitation tokens (the segment after `invitations/`, and any
 * value shaped like one: 43 base64url characters) in the path and in every query value; any
 * value that looks like an API key (the configured prefix followed by letters, or any
 * `<prefix>_` + 64 letters) wherever it appears; and the value of every query parameter named
 * like a credential (key, token, secret, password, auth, session, cookie, signature). Text is
 * percent-decoded (up to three times) before it is matched, so no encoding hides a secret; a
 * part that held one is logged decoded, with the secret replaced.
 */
export function redactUrl(url: string, apiKeyPrefix = 'ilk_'): string {
  const queryAt = url.indexOf('?');
  const path = redactSecrets(queryAt < 0 ? url : url.slice(0, queryAt), apiKeyPrefix);
  if (queryAt < 0) return path;
  const query = url
    .slice(queryAt + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const rawName = equals < 0 ? pair : pair.slice(0, equals);
      const name = safeDecode(rawName);
      if (equals >= 0 && SECRET_PARAMETER.test(name)) return `${rawName}=${REDACTED}`;
      return redactSecrets(pair, apiKeyPrefix);
    })
    .join('&');
  return `${path}?${query}`;
}

/** `text` as it is when it holds no secret, else fully decoded with every secret replaced. */
function redactSecrets(text: string, apiKeyPrefix: string): string {
  if (holdsNoSecret(text, apiKeyPrefix)) return text;
  const decoded = text.includes('%') || text.includes('+') ? fullyDecode(text) : text;
  const redacted = decoded
    .replace(INVITATION_TOKEN_SEGMENT, `$1${REDACTED}`)
    .replace(keyLikePattern(apiKeyPrefix), REDACTED)
    .replace(TOKEN_LIKE, REDACTED);
  return redacted === decoded ? text : redacted;
}

const INVITATIONS = /invitations\//i;
/** The longest run of base64url letters a text holds no token in (`TOKEN_LIKE` is 43 of them). */
const LONGEST_HARMLESS_RUN = 42;

/**
 * Whether `text` plainly holds nothing `redactSecrets` replaces — nothing encoded, no key
 * prefix, no `invitations/`, no run of 43 or more base64url letters (a token, a key) — checked
 * in one pass without a regular expression: every logged request's URL asks (issue 28).
 */
function holdsNoSecret(text: string, apiKeyPrefix: string): boolean {
  if (text.includes('%') || text.includes('+') || text.includes(apiKeyPrefix)) return false;
  if (INVITATIONS.test(text)) return false;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const letter =
      (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 45;
    if (!letter) run = 0;
    else if (++run > LONGEST_HARMLESS_RUN) return false;
  }
  return true;
}

/** Percent-decodes until nothing changes (at most three rounds: a value encoded twice is still read). */
function fullyDecode(text: string): string {
  let current = safeDecode(text);
  for (let round = 1; round < 3 && current.includes('%'); round += 1) {
    const next = safeDecode(current);
    if (next === current) break;
    current = next;
  }
  return current;
}

const keyLikePatterns = new Map<string, RegExp>();

/** What a key looks like under `apiKeyPrefix`, compiled once per prefix (every logged request asks). */
function keyLikePattern(apiKeyPrefix: string): RegExp {
  let pattern = keyLikePatterns.get(apiKeyPrefix);
  if (pattern === undefined) {
    pattern = new RegExp(
      `${escapeRegExp(apiKeyPrefix)}[A-Za-z]{4,}|\\b[a-z][a-z0-9]{0,15}_[A-Za-z]{64}`,
      'g',
    );
    keyLikePatterns.set(apiKeyPrefix, pattern);
  }
  pattern.lastIndex = 0;
  return pattern;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Request headers that carry credentials, censored in every line about a request: the same
 * names `REDACTED_PATHS` covers under `req.headers` (and a header named `password`, which its
 * `*.*.password` catches).
 */
const SECRET_REQUEST_HEADERS = [
  'x-api-key',
  'cookie',
  'authorization',
  'proxy-authorization',
  'password',
] as const;

/**
 * The request's headers as a line may hold them: credentials censored, and the Referer's URL
 * redacted (a page's address travels in it: the dashboard's invitation page holds its token).
 * The request's own object when there is nothing to change.
 */
function loggableHeaders(headers: IncomingHttpHeaders, apiKeyPrefix: string): IncomingHttpHeaders {
  let copy: IncomingHttpHeaders | undefined;
  for (const name of SECRET_REQUEST_HEADERS) {
    if (headers[name] === undefined) continue;
    copy ??= { ...headers };
    copy[name] = REDACTED;
  }
  if (headers.referer !== undefined) {
    copy ??= { ...headers };
    copy.referer = redactUrl(headers.referer, apiKeyPrefix);
  }
  return copy ?? headers;
}

/** What a line says about the request: method, redacted URL, headers with credentials censored. */
function requestFields(req: IncomingMessage & { originalUrl?: string }, apiKeyPrefix: string) {
  return {
    method: req.method,
    url: redactUrl(req.originalUrl || req.url || '/', apiKeyPrefix),
    headers: loggableHeaders(req.headers, apiKeyPrefix),
    remoteAddress: req.socket?.remoteAddress,
  };
}

interface LogContext {
  readonly logger: Logger;
  readonly apiKeyPrefix: string;
}

const silent = pino({ level: 'silent' });

/**
 * The logger for what happens while serving `req` (the exception filter's 500s, a failed MCP
 * tool): its lines carry the request (method, redacted URL, headers), the request id and the
 * route. Made on first use, so a request that logs nothing pays nothing for it.
 */
export function requestLog(request: object): Logger {
  const state = requestStateOf(request);
  const req = nodeRequest(request);
  const context = state.logContext as LogContext | undefined;
  if (context === undefined) return silent;
  let log = state.requestLog as Logger | undefined;
  if (log === undefined) {
    const route = state.route ?? routePatternOf(request);
    log = context.logger.child(
      typeof route === 'string'
        ? { req: requestFields(req, context.apiKeyPrefix), requestId: requestIdOf(req), route }
        : { req: requestFields(req, context.apiKeyPrefix), requestId: requestIdOf(req) },
    );
    state.requestLog = log;
  }
  return log;
}

/** A credential header's name (`SECRET_REQUEST_HEADERS`). */
const SECRET_REQUEST_HEADER: ReadonlySet<string> = new Set(SECRET_REQUEST_HEADERS);

/** A level's opening of a line, as pino writes it with `createLogger`'s level formatter (`{"level":"info"`). */
const levelOpening = (label: string) => JSON.stringify(levelField(label)).slice(0, -1);

/**
 * One structured line per request when its response completes (or its connection closes
 * first): request id, method, redacted URL and headers, route, status, response headers and
 * duration, at `info` (`warn` for a 5xx). No child logger, serializer or listener is made for a
 * request unless its line will be written, so at `LOG_LEVEL=silent` (or `error`) a request pays
 * one field write here (issue 14: pino-http's per-request child loggers cost about a tenth of
 * the request path even when silent).
 *
 * The line has one fixed shape, so it is written as JSON bytes directly (`JsonBytes`),
 * censored as it is written — credential headers, a `Set-Cookie`, secrets in the URL and the
 * Referer (`redactUrl`) — with the fields pino gives every line (level, time, service, and with
 * traces on the trace and span ids): into the bytes its turn of the event loop writes when the
 * logger's stream is standard output's (`lineBatching`), else as text to the logger's stream. No
 * object is built for pino to walk, and no string for a piece of the line (issue 28,
 * BENCHMARKS.md). `logger` must come from `createLogger`. Every other line is pino's, with
 * pino's redaction.
 */
export function httpLogger(
  logger: Logger,
  apiKeyPrefix: string,
): (req: IncomingMessage, res: ServerResponse, state: RequestState) => void {
  const found = lineSinks.get(logger);
  if (found === undefined) throw new Error('httpLogger writes to a logger made by createLogger');
  const sink: LineSink = found;
  const context: LogContext = { logger, apiKeyPrefix };
  const infoEnabled = logger.isLevelEnabled('info');
  const warnEnabled = logger.isLevelEnabled('warn');
  const info = JsonBytes.piece(levelOpening('info'));
  const warn = JsonBytes.piece(levelOpening('warn'));
  const baseFields = JsonBytes.piece(sink.baseFields);
  const censorRequestHeader = (name: string, value: unknown): string | undefined => {
    if (SECRET_REQUEST_HEADER.has(name)) return REDACTED;
    if (name === 'referer' && typeof value === 'string') return redactUrl(value, apiKeyPrefix);
    return undefined;
  };
  const stream = sink.stream as DestinationStream & Partial<LineBatchingDestination>;
  // The turn's own bytes when the stream has them; else the line is built here and handed on as text.
  const turnBytes = stream.turnBytes?.bind(stream);
  const ownBytes = turnBytes === undefined ? new JsonBytes() : undefined;
  /** The line, written when the response closes: one function for every request (`this`: the response). */
  function writeLine(this: ServerResponse): void {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the listener's response, named
    const res = this;
    const status = res.statusCode;
    if (status < 500 && !infoEnabled) return;
    const req = res.req as IncomingMessage & { originalUrl?: string };
    const state = requestStateOf(req);
    const route = state.route ?? routePatternOf(req);
    const remoteAddress = req.socket?.remoteAddress;
    const method = req.method ?? '';
    const out = ownBytes ?? (turnBytes as () => JsonBytes)();
    const start = out.length;
    try {
      out.raw(status < 500 ? info : warn);
      writeIsoTime(out);
      out.raw(baseFields);
      if (sink.mixin !== undefined) out.members(sink.mixin(), noCensor, true);
      out.raw(PIECES.reqMethod);
      out.string(method);
      out.raw(PIECES.url);
      out.string(redactUrl(req.originalUrl || req.url || '/', apiKeyPrefix));
      out.raw(PIECES.headers);
      out.members(req.headers, censorRequestHeader, false);
      if (remoteAddress === undefined) out.raw(PIECES.closeTwo);
      else {
        out.raw(PIECES.remoteAddress);
        out.string(remoteAddress);
        out.byte(CLOSE_BRACE);
      }
      out.raw(PIECES.requestId);
      out.string(state.id);
      if (typeof route === 'string') {
        out.raw(PIECES.route);
        out.string(route);
      }
      out.raw(PIECES.resStatus);
      out.number(status);
      out.raw(PIECES.headers);
      responseHeaderMembers(out, res, state);
      out.raw(PIECES.duration);
      out.number(Math.round(performance.now() - state.startedAt));
      // The message `GET 200`: the method's JSON string, its closing quote after the status.
      out.raw(PIECES.msg);
      out.string(method);
      out.length -= 1;
      out.byte(SPACE);
      out.number(status);
      out.raw(PIECES.lineEnd);
    } catch (error) {
      // No part of a line is left for the next one to follow.
      out.length = start;
      throw error;
    }
    if (ownBytes !== undefined) {
      const line = ownBytes.view().toString('utf8');
      ownBytes.clear();
      sink.stream.write(line);
    }
  }
  return (_req, res, state) => {
    state.logContext = context;
    if (!warnEnabled) return;
    state.startedAt = performance.now();
    // A response always emits 'close' (after 'finish', or when its connection goes first), once.
    res.on('close', writeLine);
  };
}

const noCensor = (): undefined => undefined;
/** The request line's fixed pieces, as bytes. */
const PIECES = JsonBytes.pieces({
  redacted: JSON.stringify(REDACTED),
  reqMethod: ',"req":{"method":',
  url: ',"url":',
  headers: ',"headers":{',
  closeTwo: '}}',
  remoteAddress: '},"remoteAddress":',
  requestId: ',"requestId":',
  route: ',"route":',
  resStatus: ',"res":{"statusCode":',
  duration: '}},"durationMs":',
  msg: ',"msg":',
  lineEnd: '"}\n',
});
const CLOSE_BRACE = 0x7d;
const SPACE = 0x20;

/**
 * The response's headers as the request line's JSON members (the text between the braces), a
 * `Set-Cookie` censored: read by name (`getHeaders()` copies them into a null-prototype object,
 * which V8 walks slowly). An answer Fastify's reply wrote with no header set on Node's response
 * (the service's own go on the reply: `setAnswerHeader`) left Node's response none to list:
 * its headers are the reply's.
 */
function responseHeaderMembers(out: JsonBytes, res: ServerResponse, state: RequestState): void {
  const names = res.getHeaderNames();
  if (names.length === 0 && state.reply !== undefined) {
    out.members(state.reply.getHeaders(), censorResponseHeader, false);
    return;
  }
  let comma = false;
  for (const name of names) {
    const at = out.length;
    if (comma) out.byte(COMMA);
    out.string(name);
    out.byte(COLON);
    if (name === 'set-cookie') out.raw(PIECES.redacted);
    else if (!out.value(res.getHeader(name))) {
      out.length = at;
      continue;
    }
    comma = true;
  }
}
const censorResponseHeader = (name: string): string | undefined =>
  name === 'set-cookie' ? REDACTED : undefined;
const COMMA = 0x2c;
const COLON = 0x3a;

/**
 * Nest's start-up chatter — one line per module, controller and mapped route (over a hundred) —
 * is for debugging the wiring, not for reading at every start: `debug`.
 */
const WIRING_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

/** Nest's own messages (bootstrap, lifecycle) go through the same logger. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}
  log(message: unknown, context?: string) {
    if (context !== undefined && WIRING_CONTEXTS.has(context))
      this.logger.debug({ context }, String(message));
    else this.logger.info({ context }, String(message));
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
