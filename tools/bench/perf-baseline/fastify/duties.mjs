// The floor of issue 28: a bare Fastify 5 + pg app, no NestJS and no import from the service, that
// does the per-request duties docs/SPEC.md pins on the routes the pair goals measure, and nothing
// else. What it shares with the service on purpose, so that its request line is the service's byte
// for byte: the redaction's patterns (SECRET_NAME, KEY_LIKE, TOKEN_LIKE and INVITATION are
// apps/api/src/logging/logger.ts's, as they are) and the request id's SANE_ID
// (request-id.middleware.ts); its line writer (room / putString / putInteger) follows the
// service's JsonBytes technique. So that its answers are the service's, it also runs the
// service's SQL texts (copied, and checked equal by hand when written: the bench-floor e2e checks
// the answers, not the texts, so a changed statement that answers the same goes unnoticed) and
// makes libs/cursor's cursor format. The request handling, the key, the budget and the answers are
// its own. Routes:
//   GET /health/live           {"status":"ok"}
//   GET /api/whoami            the key's organisation, plan and key (x-api-key)
//   GET /api/interrupts/:id    the interrupt's record as the service keeps it (record_json), by the
//                              service's own statement, from the service's database
//   GET /api/audit-log         the plain page (limit, cursor): the entries' kept JSON joined, by the
//                              service's own two statements (a first page with its snapshot; a page
//                              after a cursor's entry), a Pro organisation's key (402 otherwise)
//   GET /api/interrupts        the plain listing (limit, cursor), newest first: the kept records
//                              joined by Postgres in one row, by the service's own two statements
// and on each of them (and on any other path's 404): the request id (a sane `x-request-id` kept,
// else a new UUID, echoed), one JSON line per request on standard output at info with the fields
// and the redaction of the service's request line (credential headers censored, secrets in the
// URL and the Referer replaced), the lines of one turn of the event loop written synchronously in
// one write; on the key routes the key's form (prefix, 64 letters, the Luhn letter; the digest
// letters before a lookup) refused without the database, a known key found by its SHA-256 in
// memory (a miss reads `api_keys` by the key's HMAC-SHA-256 under API_KEY_PEPPER), its expiry, its
// last use kept in memory and written once a minute, the organisation's request budget counted in
// memory with the four `RateLimit-*` headers (429 with `Retry-After` past it), and the SPEC §4
// error bodies (401 MISSING_API_KEY / INVALID_API_KEY / API_KEY_EXPIRED, 404 NOT_FOUND); on the
// pages, the limit (1–200, 50 by default) and the cursor with the service's 400 VALIDATION_FAILED
// texts, and the next cursor as the service makes it (libs/cursor's one format: the fields as
// base64url JSON, then 16 bytes of HMAC-SHA-256 over the organisation, the listing's filters and
// the payload, under a key derived by HKDF from CURSOR_SECRET or the pepper; the signatures of the
// cursors issued last kept, as the service keeps them); the audit walk's snapshot and parameters'
// digest in its cursor.
//
// Not done (the service does them; none is on the measured answers' path): the budget's count
// shared between instances (the service adds its counts to Postgres four times a second), a key's
// revocation heard from other instances (here a known key stays known), 405 with `Allow`, the
// request hygiene checks (a GET's body, text Postgres cannot store), records not kept (answered
// 501 here; the service renders them), the pages' filters and unknown parameters (q, status,
// category, …: 501 here, where the service filters or answers 400) and a limit or cursor given
// twice in the inbox's query (501), members' cookies, traces and metrics.
//
// Env: PORT (4103), HOST, DATABASE_URL (the service's database), PG_POOL_MAX (10), API_KEY_PEPPER,
// CURSOR_SECRET (the pepper), API_KEY_PREFIX (ilk_), RATE_LIMIT_API_KEY_REQUESTS (6000),
// RATE_LIMIT_API_KEY_WINDOW_SECONDS (60), RECORD_RENDER_VERSION (9); INBOX_PAGE=rows, a measurement's
// switch: the inbox page read as rows and joined here, not joined by Postgres as the service reads it.
import {
  createHash,
  createHmac,
  createSecretKey,
  hkdfSync,
  randomUUID,
  timingSafeEqual,
} from 'node:crypto';
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

// ---- the log: one line per request, written as UTF-8 straight into the bytes its turn of the
// event loop writes (no string made for a piece of the line, no object copied), the lines of a
// turn in one synchronous write -----------------------------------------------------------------
const FIRST_BYTES = 64 * 1024;
let bytes = Buffer.allocUnsafe(FIRST_BYTES);
let used = 0;
function writeHeld() {
  for (let at = 0; at < used;) {
    try {
      at += writeSync(1, bytes, at, used - at);
    } catch (error) {
      if (error.code !== 'EAGAIN') throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
  }
  used = 0;
  // A turn of very many lines grew the buffer: let it go.
  if (bytes.length > 16 * FIRST_BYTES) bytes = Buffer.allocUnsafe(FIRST_BYTES);
}
process.on('exit', () => used !== 0 && writeHeld());
// Stopped by the benches (SIGTERM): an exit, so the held lines and a `--cpu-prof` profile are written.
process.on('SIGTERM', () => process.exit(0));
/** Room for `count` more bytes (the buffer doubled as needed). */
function room(count) {
  if (used + count <= bytes.length) return;
  let size = bytes.length * 2;
  while (size < used + count) size *= 2;
  const grown = Buffer.allocUnsafe(size);
  bytes.copy(grown, 0, 0, used);
  bytes = grown;
}
/** A fixed piece of a line, its bytes made once. */
const piece = (text) => Buffer.from(text, 'utf8');
function put(made) {
  room(made.length);
  bytes.set(made, used);
  used += made.length;
}
/** Any text, as UTF-8. */
function putText(text) {
  room(text.length * 3);
  used += bytes.write(text, used, 'utf8');
}
/** `text` as JSON.stringify writes it: printable ASCII without `"` or `\` copied as it is checked. */
function putString(text) {
  const count = text.length;
  room(count + 2);
  let at = used;
  bytes[at++] = 0x22;
  for (let i = 0; i < count; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return putText(JSON.stringify(text));
    bytes[at++] = c;
  }
  bytes[at++] = 0x22;
  used = at;
}
/** A non-negative integer's digits (a status, a duration). */
function putInteger(value) {
  if (!(value >= 0 && Number.isSafeInteger(value))) return putText(JSON.stringify(value));
  let digits = 1;
  for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits += 1;
  room(digits);
  let at = used + digits;
  used = at;
  do {
    bytes[--at] = 0x30 + (value % 10);
    value = Math.floor(value / 10);
  } while (value > 0);
}
/** A header's value as JSON.stringify writes it; false (nothing written) for undefined. */
function putValue(value) {
  if (typeof value === 'string') putString(value);
  else if (typeof value === 'number') putInteger(value);
  else {
    const text = JSON.stringify(value);
    if (text === undefined) return false;
    putText(text);
  }
  return true;
}
/** An object's members (`"a":1,"b":"x"`), each value through `censor` (undefined: the value). */
function putMembers(record, censor) {
  let comma = false;
  for (const name in record) {
    const value = record[name];
    if (value === undefined) continue;
    const at = used;
    if (comma) {
      room(1);
      bytes[used++] = 0x2c;
    }
    putString(name);
    room(1);
    bytes[used++] = 0x3a;
    if (putValue(censor(name, value) ?? value)) comma = true;
    else used = at;
  }
}
/** Whether a line is in the turn's bytes already (the write is then scheduled). */
function lineStarts() {
  if (used === 0) setImmediate(writeHeld);
}

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
const SECRET_HEADER = new Set(SECRET_HEADERS);
/** A request header as the line holds it: credentials censored, the Referer's secrets replaced. */
function censorRequestHeader(name, value) {
  if (SECRET_HEADER.has(name)) return REDACTED;
  if (name === 'referer') return loggableUrl(value);
  return undefined;
}
/** A response header as the line holds it: a Set-Cookie censored. */
const censorResponseHeader = (name) => (name === 'set-cookie' ? REDACTED : undefined);

const LINE = {
  info: piece('{"level":"info","time":'),
  warn: piece('{"level":"warn","time":'),
  method: piece(',"service":"interlock-api","req":{"method":'),
  url: piece(',"url":'),
  headers: piece(',"headers":{'),
  remoteAddress: piece('},"remoteAddress":'),
  closeOne: piece('}'),
  closeTwo: piece('}}'),
  requestId: piece(',"requestId":'),
  route: piece(',"route":'),
  status: piece(',"res":{"statusCode":'),
  duration: piece('}},"durationMs":'),
  msg: piece(',"msg":'),
  end: piece('"}\n'),
};

/** The request's line, once its answer is written: the service's fields, in its order. */
function logLine(request, reply, id, started) {
  const status = reply.statusCode;
  const route = request.routeOptions.url;
  lineStarts();
  const start = used;
  try {
    writeLine(request, reply, id, started, status, route);
  } catch (error) {
    // No part of a line is left for the next to follow.
    used = start;
    throw error;
  }
}
function writeLine(request, reply, id, started, status, route) {
  const req = request.raw;
  put(status < 500 ? LINE.info : LINE.warn);
  putString(isoNow());
  put(LINE.method);
  putString(req.method);
  put(LINE.url);
  putString(loggableUrl(req.url));
  put(LINE.headers);
  putMembers(req.headers, censorRequestHeader);
  const remoteAddress = req.socket.remoteAddress;
  if (remoteAddress === undefined) put(LINE.closeTwo);
  else {
    put(LINE.remoteAddress);
    putString(remoteAddress);
    put(LINE.closeOne);
  }
  put(LINE.requestId);
  putString(id);
  if (route !== undefined) {
    put(LINE.route);
    putString(route);
  }
  put(LINE.status);
  putInteger(status);
  put(LINE.headers);
  // Fastify hands its headers to writeHead (the Node response holds none of them): the reply's.
  putMembers(reply.getHeaders(), censorResponseHeader);
  put(LINE.duration);
  putInteger(Math.round(performance.now() - started));
  // `GET 200`: the method's JSON string, its closing quote after the status.
  put(LINE.msg);
  putString(req.method);
  bytes[used - 1] = 0x20;
  putInteger(status);
  put(LINE.end);
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
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
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
  PLAN_REQUIRED: 'The audit log API requires the Pro plan.',
  NOT_PLAIN: 'This floor answers the plain page only (limit and cursor, each once).',
};
function refuse(request, reply, id, started, status, code, message = MESSAGES[code]) {
  answer(
    request,
    reply,
    id,
    started,
    status,
    `{"statusCode":${status},"error":"${REASONS[status]}","code":"${code}","message":${JSON.stringify(message)},"requestId":${JSON.stringify(id)}}`,
  );
}
/** SPEC §4's 400 VALIDATION_FAILED, `message` naming the parameter and what is wrong. */
const invalid = (request, reply, id, started, message) =>
  refuse(request, reply, id, started, 400, 'VALIDATION_FAILED', message);

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
    plan: row.plan,
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

/**
 * A route of a key: the request id, then the key (`admit`), then `handler(request, reply, id,
 * started, key)` — the key undefined when it was refused (answered already).
 */
const keyed = (handler) => (request, reply) => {
  const started = performance.now();
  const id = requestId(request, reply);
  const key = admit(request, reply, id, started);
  if (key instanceof Promise) return key.then((k) => handler(request, reply, id, started, k));
  return handler(request, reply, id, started, key);
};

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
app.get('/api/whoami', keyed(whoami));
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
app.get('/api/interrupts/:id', keyed(record));
// ---- the pages' cursors (SPEC §7, §5): base64url(JSON array of strings) "." the first 16 bytes
// of an HMAC-SHA-256, in base64url, over [organisation, filters, payload] under the kind's key
// (HKDF-SHA-256 of CURSOR_SECRET, else API_KEY_PEPPER, as the service's) --------------------------
const CURSOR_SECRET = env.CURSOR_SECRET ?? PEPPER;
const MAX_CURSOR_LENGTH = 512;
/** Signatures issued lately by the text signed, at most this many (a first page polled again). */
const SIGNATURES_KEPT = 1024;
function cursorKind(purpose) {
  const key = createSecretKey(
    Buffer.from(
      hkdfSync(
        'sha256',
        Buffer.from(CURSOR_SECRET, 'utf8'),
        'interlock/cursor',
        `interlock/cursor/${purpose}/v2`,
        32,
      ),
    ),
  );
  return { key, signatures: new Map() };
}
const AUDIT_CURSORS = cursorKind('audit-log.walk');
const INBOX_CURSORS = cursorKind('interrupts.list');
function signatureOf(kind, signed) {
  let signature = kind.signatures.get(signed);
  if (signature === undefined) {
    signature = createHmac('sha256', kind.key)
      .update(signed)
      .digest()
      .subarray(0, 16)
      .toString('base64url');
    if (kind.signatures.size >= SIGNATURES_KEPT) kind.signatures.clear();
    kind.signatures.set(signed, signature);
  }
  return signature;
}
function encodeCursor(kind, organisationId, filters, fields) {
  const payload = Buffer.from(JSON.stringify(fields)).toString('base64url');
  return `${payload}.${signatureOf(kind, JSON.stringify([organisationId, filters, payload]))}`;
}
/** The cursor's `arity` strings, or undefined when it does not verify for this scope. */
function decodeCursor(kind, organisationId, filters, token, arity) {
  if (token.length > MAX_CURSOR_LENGTH) return undefined;
  const parts = token.split('.');
  if (parts.length !== 2 || parts[0] === '' || parts[1] === '') return undefined;
  const given = Buffer.from(parts[1]);
  const expected = Buffer.from(
    signatureOf(kind, JSON.stringify([organisationId, filters, parts[0]])),
  );
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  let fields;
  try {
    fields = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(fields) || fields.length !== arity) return undefined;
  return fields.every((x) => typeof x === 'string') ? fields : undefined;
}

// ---- GET /api/audit-log: the plain page (SPEC §7), a Pro organisation's key -----------------------
/**
 * The entry's kept JSON (rendered again when not kept) and its place in the walk (its instant is
 * the JSON's `createdAt`, read for the page's last entry only).
 */
const AUDIT_COLUMNS = `audit_log_entries.seq, CASE WHEN audit_log_entries.entry_render_version = audit_log_render_version() AND audit_log_entries.entry_json IS NOT NULL
    THEN audit_log_entries.entry_json ELSE audit_log_entry_json(audit_log_entries) END AS entry_json`;
/** A walk's first page and its snapshot (the organisation's newest sequence number) at once. */
const AUDIT_FIRST = `SELECT ${AUDIT_COLUMNS}, (SELECT h.last_seq::text FROM audit_log_heads h WHERE h.organisation_id = $1) AS snapshot FROM audit_log_entries WHERE organisation_id = $1 ORDER BY created_at DESC, seq DESC LIMIT $2`;
/** The page after a cursor's entry, at its walk's snapshot. */
const AUDIT_AFTER = `SELECT ${AUDIT_COLUMNS} FROM audit_log_entries WHERE organisation_id = $1 AND seq <= $2 AND (created_at, seq) < ($3::timestamptz, $4::bigint) ORDER BY created_at DESC, seq DESC LIMIT $5`;
/** The digest of a plain walk's parameters by its limit (a cursor carries it): SHA-256, 22 letters. */
const auditDigests = new Map();
function auditDigest(limit) {
  let digest = auditDigests.get(limit);
  if (digest === undefined) {
    const canonical = `[["action",null],["actorId",null],["actorType",null],["category",null],["limit",${limit}],["targetId",null],["targetType",null],["words",""]]`;
    digest = createHash('sha256').update(canonical).digest('base64url').slice(0, 22);
    auditDigests.set(limit, digest);
  }
  return digest;
}
const ISO_MILLIS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** An entry's instant for a cursor: its JSON's `createdAt` (the column holds milliseconds). */
function instantOfEntry(entryJson) {
  const { createdAt } = JSON.parse(entryJson);
  if (typeof createdAt !== 'string' || !ISO_MILLIS.test(createdAt))
    throw new Error(`an audit entry's createdAt is not an instant: ${String(createdAt)}`);
  return createdAt;
}
const DIGITS = /^\d{1,19}$/;

async function auditPage(request, reply, id, started, key) {
  if (key === undefined) return;
  if (key.plan !== 'pro') return refuse(request, reply, id, started, 402, 'PLAN_REQUIRED');
  const query = request.query;
  for (const name in query)
    if (name !== 'limit' && name !== 'cursor')
      return refuse(request, reply, id, started, 501, 'NOT_PLAIN');
  const { limit: limitText, cursor } = query;
  let limit = 50;
  if (limitText !== undefined) {
    if (typeof limitText !== 'string')
      return invalid(request, reply, id, started, 'limit: must be given once, as a string');
    limit = Number(limitText);
    if (!/^\d{1,3}$/.test(limitText) || limit < 1 || limit > 200)
      return invalid(request, reply, id, started, 'limit: must be an integer from 1 to 200');
  }
  if (cursor !== undefined && typeof cursor !== 'string')
    return invalid(request, reply, id, started, 'cursor: must be given once, as a string');
  const organisationId = key.organisationId;
  const digest = auditDigest(limit);
  let snapshot;
  let rows;
  try {
    if (cursor === undefined) {
      ({ rows } = await pool.query({
        name: 'audit-first',
        text: AUDIT_FIRST,
        values: [organisationId, limit + 1],
      }));
      snapshot = rows[0]?.snapshot ?? '0';
    } else {
      const fields = decodeCursor(AUDIT_CURSORS, organisationId, '', cursor, 4);
      if (
        fields === undefined ||
        Number.isNaN(Date.parse(fields[0])) ||
        !DIGITS.test(fields[1]) ||
        !DIGITS.test(fields[2])
      )
        return invalid(request, reply, id, started, 'cursor: is not a cursor this endpoint issued');
      if (fields[3] !== digest)
        return invalid(
          request,
          reply,
          id,
          started,
          'cursor: belongs to a walk with different parameters; repeat them unchanged',
        );
      snapshot = fields[2];
      ({ rows } = await pool.query({
        name: 'audit-after',
        text: AUDIT_AFTER,
        values: [organisationId, snapshot, fields[0], fields[1], limit + 1],
      }));
    }
  } catch {
    reply.header('retry-after', '5');
    return refuse(request, reply, id, started, 503, 'SERVICE_UNAVAILABLE');
  }
  let entries = '';
  for (let i = 0; i < rows.length && i < limit; i++)
    entries += (i === 0 ? '' : ',') + rows[i].entry_json;
  const last = rows.length > limit ? rows[limit - 1] : undefined;
  const next =
    last === undefined
      ? 'null'
      : JSON.stringify(
          encodeCursor(AUDIT_CURSORS, organisationId, '', [
            instantOfEntry(last.entry_json),
            String(last.seq),
            snapshot,
            digest,
          ]),
        );
  answer(request, reply, id, started, 200, `{"entries":[${entries}],"nextCursor":${next}}`);
}
app.get('/api/audit-log', keyed(auditPage));

// ---- GET /api/interrupts: the plain listing (SPEC §5), newest first ----------------------------
/**
 * The page as one row, as the service reads it: the kept records joined in the listing's order,
 * how many rows of `limit + 1` there were, how many have no kept record, and the last one's place.
 */
const inboxStatement = (
  where,
  take,
) => `SELECT string_agg(p.record_json, ',' ORDER BY p.n) FILTER (WHERE p.n < ${take}) AS records,
        count(*)::int AS taken,
        (count(*) FILTER (WHERE p.n < ${take} AND p.record_json IS NULL))::int AS unkept,
        min(p.id::text) FILTER (WHERE p.n = ${take} - 1) AS last_id,
        min(p.created_at) FILTER (WHERE p.n = ${take} - 1) AS last_created_at,
        min(p.expires_at) FILTER (WHERE p.n = ${take} - 1) AS last_expires_at
      FROM (SELECT row_number() OVER (ORDER BY q.sort_at DESC, q.id DESC) AS n, q.* FROM (SELECT 
  i.id, i.created_at::text AS created_at, i.expires_at::text AS expires_at,
  CASE WHEN (i.record_version = ${RECORD_VERSION} AND i.record_json IS NOT NULL) THEN i.record_json END AS record_json, i.created_at AS sort_at FROM interrupts i WHERE ${where} ORDER BY i.created_at DESC, i.id DESC LIMIT ${take}) q) p`;
const INBOX_FIRST = inboxStatement('i.organisation_id = $1', '$2');
const INBOX_AFTER = inboxStatement(
  'i.organisation_id = $1 AND (i.created_at, i.id) < ($2::timestamptz, $3::uuid)',
  '$4',
);
/**
 * INBOX_PAGE=rows (a measurement's switch, not the service's way): the same page as the rows of
 * the service's statement of a listing by rows (`inboxPageQuery` of its listed columns), joined
 * here — what a page costs Node and Postgres when Postgres does not join it.
 */
const INBOX_ROWS = env.INBOX_PAGE === 'rows';
const inboxRowsStatement = (where, take) => `SELECT 
  i.id, i.created_at::text AS created_at, i.expires_at::text AS expires_at,
  CASE WHEN (i.record_version = ${RECORD_VERSION} AND i.record_json IS NOT NULL) THEN i.record_json END AS record_json FROM interrupts i WHERE ${where} ORDER BY i.created_at DESC, i.id DESC LIMIT ${take}`;
const INBOX_ROWS_FIRST = inboxRowsStatement('i.organisation_id = $1', '$2');
const INBOX_ROWS_AFTER = inboxRowsStatement(
  'i.organisation_id = $1 AND (i.created_at, i.id) < ($2::timestamptz, $3::uuid)',
  '$4',
);
/** Up to `limit + 1` listed rows as the one row the service's statement answers. */
function pageOfRows(rows, limit) {
  let records = null;
  let unkept = 0;
  for (let i = 0; i < rows.length && i < limit; i++) {
    const record = rows[i].record_json;
    if (record === null) unkept += 1;
    else records = records === null ? record : `${records},${record}`;
  }
  const last = rows.length >= limit ? rows[limit - 1] : undefined;
  return {
    records,
    taken: rows.length,
    unkept,
    last_id: last?.id ?? null,
    last_created_at: last?.created_at ?? null,
  };
}
/** A plain listing's cursor scope: the organisation and every filter unset, newest first. */
const inboxFilters = (organisationId) =>
  `[${JSON.stringify(organisationId)},null,null,null,null,null,"",null,null,"newest",null,null,null]`;
const parseTimestamptz = pg.types.getTypeParser(1184, 'text');
const CURSOR_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const LOWER_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** The limit's problems as the service's validation names them (class-validator's texts, its order). */
function limitProblems(text) {
  const n = Number(text);
  const problems = [];
  if (!(n <= 200)) problems.push('limit must not be greater than 200');
  if (!(n >= 1)) problems.push('limit must not be less than 1');
  if (!Number.isInteger(n)) problems.push('limit must be an integer number');
  return problems.join('; ');
}

async function inboxPage(request, reply, id, started, key) {
  if (key === undefined) return;
  const query = request.query;
  for (const name in query)
    if ((name !== 'limit' && name !== 'cursor') || typeof query[name] !== 'string')
      return refuse(request, reply, id, started, 501, 'NOT_PLAIN');
  const { limit: limitText, cursor } = query;
  const problems = [];
  if (cursor !== undefined && (cursor.length < 1 || cursor.length > 1000))
    problems.push(
      cursor.length < 1
        ? 'cursor must be longer than or equal to 1 characters'
        : 'cursor must be shorter than or equal to 1000 characters',
    );
  const limitProblem = limitText === undefined ? '' : limitProblems(limitText);
  if (limitProblem !== '') problems.push(limitProblem);
  if (problems.length > 0) return invalid(request, reply, id, started, problems.join('; '));
  const limit = limitText === undefined ? 50 : Number(limitText);
  const organisationId = key.organisationId;
  const filters = inboxFilters(organisationId);
  let page;
  try {
    if (cursor === undefined) {
      const { rows } = await pool.query({
        name: INBOX_ROWS ? 'inbox-rows-first' : 'inbox-first',
        text: INBOX_ROWS ? INBOX_ROWS_FIRST : INBOX_FIRST,
        values: [organisationId, limit + 1],
      });
      page = INBOX_ROWS ? pageOfRows(rows, limit) : rows[0];
    } else {
      const fields = decodeCursor(INBOX_CURSORS, organisationId, filters, cursor, 2);
      if (fields === undefined || !CURSOR_ISO.test(fields[0]) || !LOWER_UUID.test(fields[1]))
        return invalid(
          request,
          reply,
          id,
          started,
          'cursor is not a valid cursor for this listing (use nextCursor with the same filters).',
        );
      const { rows } = await pool.query({
        name: INBOX_ROWS ? 'inbox-rows-after' : 'inbox-after',
        text: INBOX_ROWS ? INBOX_ROWS_AFTER : INBOX_AFTER,
        values: [organisationId, fields[0], fields[1], limit + 1],
      });
      page = INBOX_ROWS ? pageOfRows(rows, limit) : rows[0];
    }
  } catch {
    reply.header('retry-after', '5');
    return refuse(request, reply, id, started, 503, 'SERVICE_UNAVAILABLE');
  }
  if (page.unkept > 0) return refuse(request, reply, id, started, 501, 'NOT_KEPT');
  const next =
    page.taken > limit && page.last_id !== null
      ? JSON.stringify(
          encodeCursor(INBOX_CURSORS, organisationId, filters, [
            parseTimestamptz(page.last_created_at).toISOString(),
            page.last_id,
          ]),
        )
      : 'null';
  answer(
    request,
    reply,
    id,
    started,
    200,
    `{"interrupts":[${page.records ?? ''}],"nextCursor":${next}}`,
  );
}
app.get('/api/interrupts', keyed(inboxPage));

app.setNotFoundHandler((request, reply) => {
  const started = performance.now();
  refuse(request, reply, requestId(request, reply), started, 404, 'NOT_FOUND');
});

await app.listen({ port: Number(env.PORT ?? 4103), host: env.HOST ?? '127.0.0.1' });
// The port it took (PORT=0: any free one), on standard error (standard output is the log's).
console.error(
  `fastify duties floor listening on ${app.server.address().port} (pid ${process.pid})`,
);
