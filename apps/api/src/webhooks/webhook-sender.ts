import { Agent as HttpAgent, request as httpRequest, IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { hostOf, type ResolvedAddress } from './webhook-url.util';

export interface SignedMessage {
  /** The event id: the `webhook-id` header, the same on every attempt. */
  id: string;
  body: string;
  /** The secrets to sign with: the current one, and the previous one during the 24 h after a rotation. */
  secrets: string[];
}

export interface AttemptResult {
  /** The HTTP status answered; null when none came. */
  status: number | null;
  durationMs: number;
  /** Why the attempt failed, in words a member can act on; null on a 2xx. */
  error: string | null;
  /** The answer's body, when asked for (`readBody`) and a 2xx came. */
  body?: string;
}

/** Per request: its own time limit, and whether the answer's body is wanted (the classifier's). */
export interface SendOptions {
  timeoutMs?: number;
  /** The error when the time runs out (default: `No answer within <timeoutMs> s.`). */
  timeoutError?: string;
  readBody?: boolean;
}

const STALE = Symbol('stale keep-alive connection');

/** How much of a response body is read (and discarded) before the connection is let go. */
const MAX_RESPONSE_BYTES = 64 * 1024;
const USER_AGENT = 'Interlock-Webhooks/1.0 (+https://www.standardwebhooks.com)';

/**
 * The Standard Webhooks headers of one attempt: `webhook-id`, `webhook-timestamp` (Unix seconds,
 * now: a retry is signed afresh) and `webhook-signature`, `v1,<base64 HMAC-SHA-256 of
 * "id.timestamp.body">` under each secret's bytes, space-separated when there are two. Signed by
 * the reference implementation (`standardwebhooks`).
 */
export function signedHeaders(
  message: SignedMessage,
  at: Date = new Date(),
): Record<string, string> {
  const timestamp = new Date(Math.floor(at.getTime() / 1000) * 1000);
  return {
    'webhook-id': message.id,
    'webhook-timestamp': String(timestamp.getTime() / 1000),
    'webhook-signature': message.secrets
      .map((secret) => new Webhook(secret).sign(message.id, timestamp, message.body))
      .join(' '),
  };
}

/**
 * POSTs signed events. It connects only to the addresses it is given — those the URL's host was
 * resolved to and checked against just before (webhook-url.util.ts) — so nothing is resolved a
 * second time between the check and the connection. Redirects are answers like any other (a 3xx
 * is not a 2xx: the attempt failed); they are never followed. Connections are kept alive per
 * host, which matters most for TLS.
 */
export class WebhookSender {
  private readonly httpAgent: HttpAgent;
  private readonly httpsAgent: HttpsAgent;

  constructor(
    private readonly timeoutMs: number,
    socketsPerHost: number,
  ) {
    this.httpAgent = new HttpAgent({
      keepAlive: true,
      maxSockets: socketsPerHost,
      scheduling: 'lifo',
    });
    this.httpsAgent = new HttpsAgent({
      keepAlive: true,
      maxSockets: socketsPerHost,
      scheduling: 'lifo',
    });
  }

  async send(
    url: URL,
    addresses: ResolvedAddress[],
    message: SignedMessage,
    options: SendOptions = {},
  ): Promise<AttemptResult> {
    const started = performance.now();
    // A kept-alive connection the endpoint closed just as it was reused fails before the request
    // reached it (Node's documented race): send again, on another connection.
    for (let tries = 0; tries < 3; tries++) {
      const result = await this.post(url, addresses, message, started, options);
      if (result !== STALE) return result;
    }
    return {
      status: null,
      durationMs: Math.round(performance.now() - started),
      error: 'The connection was reset.',
    };
  }

  private post(
    url: URL,
    addresses: ResolvedAddress[],
    message: SignedMessage,
    started: number,
    options: SendOptions,
  ): Promise<AttemptResult | typeof STALE> {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const duration = () => Math.round(performance.now() - started);
    const https = url.protocol === 'https:';
    const pinned: LookupFunction = (_hostname, options, callback) => {
      const family = typeof options === 'object' ? options.family : undefined;
      const usable = addresses.filter(
        (a) => family === undefined || family === 0 || a.family === family,
      );
      const chosen = usable.length > 0 ? usable : addresses;
      if (typeof options === 'object' && options.all) {
        (callback as unknown as (err: null, all: ResolvedAddress[]) => void)(null, chosen);
      } else {
        callback(null, chosen[0].address, chosen[0].family);
      }
    };
    return new Promise<AttemptResult | typeof STALE>((resolve) => {
      let settled = false;
      let answered = false;
      const finish = (result: AttemptResult | typeof STALE) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        resolve(result);
      };
      const req = (https ? httpsRequest : httpRequest)(
        {
          protocol: url.protocol,
          hostname: hostOf(url),
          port: url.port === '' ? undefined : Number(url.port),
          path: `${url.pathname}${url.search}`,
          method: 'POST',
          agent: https ? this.httpsAgent : this.httpAgent,
          lookup: pinned,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(message.body),
            'user-agent': USER_AGENT,
            ...signedHeaders(message),
          },
        },
        (res: IncomingMessage) => {
          answered = true;
          const status = res.statusCode ?? 0;
          const ok = status >= 200 && status < 300;
          const keep = ok && options.readBody === true;
          const chunks: Buffer[] = [];
          let read = 0;
          let tooLarge = false;
          const done = () =>
            finish({
              status,
              durationMs: duration(),
              error: ok
                ? tooLarge && keep
                  ? `The answer is larger than ${MAX_RESPONSE_BYTES / 1024} KB.`
                  : null
                : `The endpoint answered ${status}${status >= 300 && status < 400 ? ' (redirects are not followed)' : ''}.`,
              ...(keep && !tooLarge ? { body: Buffer.concat(chunks).toString('utf8') } : {}),
            });
          res.on('data', (chunk: Buffer) => {
            read += chunk.length;
            if (keep) chunks.push(chunk);
            if (read > MAX_RESPONSE_BYTES) {
              tooLarge = true;
              done();
              res.destroy();
            }
          });
          res.on('end', done);
          res.on('error', () => done());
          res.on('close', done);
        },
      );
      const deadline = setTimeout(() => {
        finish({
          status: null,
          durationMs: duration(),
          error: options.timeoutError ?? `No answer within ${timeoutMs / 1000} s.`,
        });
        req.destroy();
      }, timeoutMs);
      req.on('error', (error: NodeJS.ErrnoException) => {
        if (req.reusedSocket && error.code === 'ECONNRESET' && !answered) finish(STALE);
        else finish({ status: null, durationMs: duration(), error: describeNetworkError(error) });
      });
      req.end(message.body);
    });
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}

function describeNetworkError(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'The connection was refused.';
    case 'ECONNRESET':
    case 'EPIPE':
      return 'The connection was reset.';
    case 'ETIMEDOUT':
      return 'The connection timed out.';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'The host is unreachable.';
    default:
      if (
        error.code?.startsWith('ERR_TLS') ||
        error.code?.includes('CERT') ||
        /certificate|ssl|tls/i.test(error.message)
      ) {
        return `TLS failed: ${error.message.slice(0, 200)}`;
      }
      return `The request failed: ${(error.code ?? error.message).slice(0, 200)}`;
  }
}
