// The floor of issue 28: a bare Fastify 5 + pg app, written apart from the service (no NestJS, none
// of its code), that does the per-request duties docs/SPEC.md pins on the routes the pair goals
// measure, and nothing else:
//   GET /health/live           {"status":"ok"}
//   GET /api/whoami            the key's organisation, plan and key (x-api-key)
//   GET /api/interrupts/:id    the interrupt's record as the service keeps it (record_json), by the
//                              service's own statement, from the service's database
// and on each of them (and on any other path's 404): the request id (a sane `x-request-id` kept,
// else a new UUID, echoed), one JSON line per request on standard output at info with the fields
// and the redaction of the service's request line (credential headers censored, secrets in the
// URL and the Referer replaced), the lines of one turn of the event loop written synchronously in
// one write; on the key routes the key's form (prefix, 64 letters, the Luhn letter; the digest
// letters before a lookup) refused without the database, a known key found by its SHA-256 in
// memory (a miss reads `api_keys` by the key's HMAC-SHA-256 under API_KEY_PEPPER), its expiry, its
// last use kept in memory and written once a minute, the organisation's request budget counted in
// memory with the four `RateLimit-*` headers (429 with `Retry-After` past it), and the SPEC §4
// error bodies (401 MISSING_API_KEY / INVALID_API_KEY / API_KEY_EXPIRED, 404 NOT_FOUND).
//
// Not done (the service does them; none is on the measured answers' path): the budget's count
// shared between instances (the service adds its counts to Postgres four times a second), a key's
// revocation heard from other instances (here a known key stays known), 405 with `Allow`, the
// request hygiene checks (a GET's body, text Postgres cannot store), records not kept (answered
// 501 here; the service renders them), traces and metrics.
//
// Env: PORT (4103), HOST, DATABASE_URL (the service's database), PG_POOL_MAX (10), API_KEY_PEPPER,
// API_KEY_PREFIX (ilk_), RATE_LIMIT_API_KEY_REQUESTS (6000), RATE_LIMIT_API_KEY_WINDOW_SECONDS (60).
import { createHash, createHmac, randomUUID } from 'node:crypto';
import { writeSync } from 'node:fs';
import Fastify from 'fastify';
import pg from 'pg';

const env = process.env;
const pool = new pg.Pool({
  connectionString: env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:55433/postgres',
  max: Number(env.PG_POOL_MAX ?? 10),
});
const PEPPER = env.API_KEY_PEPPER ?? '';
const PREFIX = env.API_KEY_PREFIX ?? 'ilk_';
const BUDGET = Number(env.RATE_LIMIT_API_KEY_REQUESTS ?? 6000);
const WINDOW_S = Number(env.RATE_LIMIT_API_KEY_WINDOW_SECONDS ?? 60);
/** The version of the record's rendering the service answers a kept record_json of. */
const RECORD_VERSION = Number(env.RECORD_RENDER_VERSION ?? 9);
const JSON_TYPE = 'application/json; charset=utf-8';

// ---- the log: one line per request, the lines of a turn in one synchronous write -------------
let held = '';
function writeHeld() {
  const text = held;
  held = '';
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length;) {
    try {
      at += writeSync(1, bytes, at);
    } catch (error) {
      if (error.code !== 'EAGAIN') throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
  }
}
function emit(line) {
  if (held === '') setImmediate(writeHeld);
  held += line;
}
process.on('exit', () => held !== '' && writeHeld());

let stampMs = -1;
let stamp = '';
function isoNow() {
  const now = Date.now();
  if (now !== stampMs) {
    stampMs = now;
    stamp = new Date(now).toISOString();
  }
  return stamp;
}

const REDACTED = '[redacted]';
const SECRET_HEADERS = ['x-api-key', 'cookie', 'authorization', 'proxy-authorization', 'password'];
/** What may hold a secret: an encoding, the key prefix, an invitation's path, 43+ token letters. */
const MAYBE_SECRET = new RegExp(`[%+]|${PREFIX}|invitations/|[A-Za-z0-9_-]{43}`, 'i');
const SECRET_NAME = /key|token|secret|passw|pwd|auth|session|cookie|credential|signature/i;
const KEY_LIKE = new RegExp(`${PREFIX}[A-Za-z]{4,}|\\b[a-z][a-z0-9]{0,15}_[A-Za-z]{64}`, 'g');
const TOKEN_LIKE = /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g;
const INVITATION =
  /(\/invitations\/)(?![0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?:[/?#&]|$))[^/?#&]+/gi;

function decodeAll(text) {
  let out = text;
  for (let i = 0; i < 3; i++) {
    let next;
    try {
      next = decodeURIComponent(out.replace(/\+/g, ' '));
    } catch {
      break;
    }
    if (next === out) break;
    out = next;
  }
  return out;
}
function scrub(text) {
  if (!MAYBE_SECRET.test(text)) return text;
  const plain = decodeAll(text);
  const out = plain
    .replace(INVITATION, `$1${REDACTED}`)
    .replace(KEY_LIKE, REDACTED)
    .replace(TOKEN_LIKE, REDACTED);
  return out === plain ? text : out;
}
/** A URL as a log line may hold it: secrets in the path and query values, credential-named values. */
function loggableUrl(url) {
  if (!MAYBE_SECRET.test(url)) return url;
  const q = url.indexOf('?');
  if (q < 0) return scrub(url);
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = decodeAll(eq < 0 ? pair : pair.slice(0, eq));
      return eq >= 0 && SECRET_NAME.test(name) ? `${pair.slice(0, eq)}=${REDACTED}` : scrub(pair);
    });
  return `${scrub(url.slice(0, q))}?${query.join('&')}`;
}
/** The request's headers with credentials censored and the Referer's secrets replaced. */
function loggableHeaders(headers) {
  const secret = SECRET_HEADERS.some((name) => headers[name] !== undefined);
  if (!secret && headers.referer === undefined) return headers;
  const copy = { ...headers };
  for (const name of SECRET_HEADERS) if (copy[name] !== undefined) copy[name] = REDACTED;
  if (copy.referer !== undefined) copy.referer = loggableUrl(copy.referer);
  return copy;
}

/** The request's line, once its answer is written. */
function logLine(request, reply, id, started) {
  const req = request.raw;
  const status = reply.statusCode;
  const route = request.routeOptions.url;
  // Fastify hands its headers to writeHead (the Node response holds none of them): the reply's.
  const out = reply.getHeaders();
  if (out['set-cookie'] !== undefined) out['set-cookie'] = REDACTED;
  emit(
    `{"level":"${status < 500 ? 'info' : 'warn'}","time":"${isoNow()}","service":"interlock-api","req":{"method":${JSON.stringify(req.method)},"url":${JSON.stringify(loggableUrl(req.url))},"headers":${JSON.stringify(loggableHeaders(req.headers))},"remoteAddress":${JSON.stringify(req.socket.remoteAddress)}},"requestId":${JSON.stringify(id)}${route === undefined ? '' : `,"route":${JSON.stringify(route)}`},"res":{"statusCode":${status},"headers":${JSON.stringify(out)}},"durationMs":${Math.round(performance.now() - started)},"msg":"${req.method} ${status}"}\n`,
  );
}

// ---- the answers --------------------------------------------------------------------------------
const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;
function requestId(request, reply) {
  const offered = request.headers['x-request-id'];
  const id = typeof offered === 'string' && SANE_ID.test(offered) ? offered : randomUUID();
  reply.header('x-request-id', id);
  return id;
}
function answer(request, reply, id, started, status, text) {
  reply.code(status).header('content-type', JSON_TYPE).send(text);
  logLine(request, reply, id, started);
}
const REASONS = {
  401: 'Unauthorized',
  404: 'Not Found',
  429: 'Too Many Requests',
  501: 'Not Implemented',
  503: 'Service Unavailable',
};
const MESSAGES = {
  MISSING_API_KEY: 'Missing x-api-key header.',
  INVALID_API_KEY: 'Invalid API key.',
  API_KEY_EXPIRED: 'API Key has expired',
  NOT_FOUND: 'Not found.',
  RATE_LIMITED: 'Too many requests. Try again later.',
  SERVICE_UNAVAILABLE: 'The database is unavailable. Try again shortly.',
  NOT_KEPT: 'This floor answers kept records only.',
};
function refuse(request, reply, id, started, status, code) {
  answer(
    request,
    reply,
    id,
    started,
    status,
    `{"statusCode":${status},"error":"${REASONS[status]}","code":"${code}","message":"${MESSAGES[code]}","requestId":${JSON.stringify(id)}}`,
  );
}

// ---- keys ---------------------------------------------------------------------------------------
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** A letter's index (A–Z 0–25, a–z 26–51), -1 for anything else. */
const indexOf = (c) => (c >= 65 && c <= 90 ? c - 65 : c >= 97 && c <= 122 ? c - 71 : -1);
/** Prefix, 64 letters, and the Luhn mod 52 letter of the 58 body letters (SPEC §2): one pass. */
function formIsRight(value) {
  if (value.length !== PREFIX.length + 64 || !value.startsWith(PREFIX)) return false;
  let sum = 0;
  for (let i = 0; i < 58; i++) {
    const n = indexOf(value.charCodeAt(PREFIX.length + i));
    if (n < 0) return false;
    // The rightmost body letter is doubled, and every second one leftwards.
    sum += i % 2 === 1 ? (n * 2 < 52 ? n * 2 : n * 2 - 51) : n;
  }
  for (let i = 58; i < 64; i++) if (indexOf(value.charCodeAt(PREFIX.length + i)) < 0) return false;
  return indexOf(value.charCodeAt(PREFIX.length + 58)) === (52 - (sum % 52)) % 52;
}
/** The 5 digest letters: SHA-256 of prefix and body, mod 52^5, in base 52 (checked before a lookup). */
function digestLettersRight(value) {
  const hex = createHash('sha256')
    .update(value.slice(0, PREFIX.length + 58))
    .digest('hex');
  let r = 0;
  for (let i = 0; i < hex.length; i++) r = (r * 16 + parseInt(hex[i], 16)) % 52 ** 5;
  let letters = '';
  for (let p = 4; p >= 0; p--) letters += LETTERS[Math.floor(r / 52 ** p) % 52];
  return value.endsWith(letters);
}

/** Known keys by the SHA-256 of their value: { organisationId, expiresAt, whoami, usedAt, id }. */
const keys = new Map();
const LOOKUP = `SELECT k.id, k.organisation_id, k.name, k.expires_at, o.plan FROM api_keys k JOIN organisations o ON o.id = k.organisation_id WHERE k.key_hash = $1`;
async function lookUp(value, digest) {
  if (!digestLettersRight(value)) return undefined;
  const hash = createHmac('sha256', PEPPER).update(value).digest('hex');
  const { rows } = await pool.query({ name: 'key', text: LOOKUP, values: [hash] });
  if (rows.length === 0) return undefined;
  const row = rows[0];
  const key = {
    id: row.id,
    organisationId: row.organisation_id,
    expiresAt: row.expires_at === null ? Infinity : row.expires_at.getTime(),
    whoami: JSON.stringify({
      organisationId: row.organisation_id,
      plan: row.plan,
      apiKey: { id: row.id, name: row.name },
    }),
    usedAt: 0,
  };
  keys.set(digest, key);
  return key;
}
// Last uses, written once a minute (SPEC §2: kept to within a minute, not a write a request).
setInterval(() => {
  for (const key of keys.values()) {
    if (key.usedAt === 0) continue;
    const usedAt = new Date(key.usedAt);
    key.usedAt = 0;
    pool
      .query(
        'UPDATE api_keys SET last_used_at = $3 WHERE organisation_id = $1 AND id = $2 AND (last_used_at IS NULL OR last_used_at < $3)',
        [key.organisationId, key.id, usedAt],
      )
      // Not written (the database away): tried again the next minute, unless used since.
      .catch(() => (key.usedAt ||= usedAt.getTime()));
  }
}, 60_000).unref();

/** Each organisation's budget window: { window, used }. */
const budgets = new Map();

/**
 * The key of the request, checked and its request counted, its `RateLimit-*` headers set; or
 * undefined when it was refused (answered here). May return a promise (a key not yet known).
 */
function admit(request, reply, id, started) {
  let value = request.headers['x-api-key'];
  if (value === undefined || value.length === 0) {
    refuse(request, reply, id, started, 401, 'MISSING_API_KEY');
    return undefined;
  }
  if (Array.isArray(value)) value = value.join(', ');
  if (!formIsRight(value)) {
    refuse(request, reply, id, started, 401, 'INVALID_API_KEY');
    return undefined;
  }
  const digest = createHash('sha256').update(value).digest('base64');
  const known = keys.get(digest);
  if (known !== undefined) return spend(request, reply, id, started, known);
  return lookUp(value, digest).then(
    (key) => {
      if (key !== undefined) return spend(request, reply, id, started, key);
      refuse(request, reply, id, started, 401, 'INVALID_API_KEY');
      return undefined;
    },
    () => {
      reply.header('retry-after', '5');
      refuse(request, reply, id, started, 503, 'SERVICE_UNAVAILABLE');
      return undefined;
    },
  );
}
function spend(request, reply, id, started, key) {
  const now = Date.now();
  if (key.expiresAt <= now) {
    refuse(request, reply, id, started, 401, 'API_KEY_EXPIRED');
    return undefined;
  }
  key.usedAt = now;
  if (BUDGET === 0) return key;
  const windowMs = WINDOW_S * 1000;
  const window = now - (now % windowMs);
  let budget = budgets.get(key.organisationId);
  if (budget === undefined || budget.window !== window) {
    budget = { window, used: 0 };
    budgets.set(key.organisationId, budget);
  }
  const reset = String(Math.max(1, Math.ceil((window + windowMs - now) / 1000)));
  reply
    .header('ratelimit-policy', `${BUDGET};w=${WINDOW_S}`)
    .header('ratelimit-limit', String(BUDGET));
  if (budget.used >= BUDGET) {
    reply.header('ratelimit-remaining', '0').header('ratelimit-reset', reset);
    reply.header('retry-after', reset);
    refuse(request, reply, id, started, 429, 'RATE_LIMITED');
    return undefined;
  }
  budget.used += 1;
  reply
    .header('ratelimit-remaining', String(BUDGET - budget.used))
    .header('ratelimit-reset', reset);
  return key;
}

// ---- routes -------------------------------------------------------------------------------------
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const RECORD = `SELECT i.status, CASE WHEN i.record_version = $3 THEN i.record_json END AS record_json FROM interrupts i WHERE i.organisation_id = $1 AND i.id = $2`;

// Node's server advertises its idle timeout itself (`Keep-Alive: timeout=5`, as the service's
// answers say): 5 s here, where the service keeps an idle connection 65 s and advertises 5.
const app = Fastify({ logger: false, keepAliveTimeout: 5000 });
app.get('/health/live', (request, reply) => {
  const started = performance.now();
  const id = requestId(request, reply);
  answer(request, reply, id, started, 200, '{"status":"ok"}');
});
function whoami(request, reply, id, started, key) {
  if (key !== undefined) answer(request, reply, id, started, 200, key.whoami);
}
app.get('/api/whoami', (request, reply) => {
  const started = performance.now();
  const id = requestId(request, reply);
  const key = admit(request, reply, id, started);
  if (key instanceof Promise) return key.then((k) => whoami(request, reply, id, started, k));
  whoami(request, reply, id, started, key);
});
async function record(request, reply, id, started, key) {
  if (key === undefined) return;
  const interruptId = request.params.id;
  if (!UUID.test(interruptId)) return refuse(request, reply, id, started, 404, 'NOT_FOUND');
  let rows;
  try {
    ({ rows } = await pool.query({
      name: 'record',
      text: RECORD,
      values: [key.organisationId, interruptId.toLowerCase(), RECORD_VERSION],
    }));
  } catch {
    reply.header('retry-after', '5');
    return refuse(request, reply, id, started, 503, 'SERVICE_UNAVAILABLE');
  }
  if (rows.length === 0) return refuse(request, reply, id, started, 404, 'NOT_FOUND');
  if (rows[0].record_json === null) return refuse(request, reply, id, started, 501, 'NOT_KEPT');
  answer(request, reply, id, started, 200, rows[0].record_json);
}
app.get('/api/interrupts/:id', (request, reply) => {
  const started = performance.now();
  const id = requestId(request, reply);
  const key = admit(request, reply, id, started);
  if (key instanceof Promise) return key.then((k) => record(request, reply, id, started, k));
  return record(request, reply, id, started, key);
});
app.setNotFoundHandler((request, reply) => {
  const started = performance.now();
  refuse(request, reply, requestId(request, reply), started, 404, 'NOT_FOUND');
});

await app.listen({ port: Number(env.PORT ?? 4103), host: env.HOST ?? '127.0.0.1' });
// The port it took (PORT=0: any free one), on standard error (standard output is the log's).
console.error(
  `fastify duties floor listening on ${app.server.address().port} (pid ${process.pid})`,
);
