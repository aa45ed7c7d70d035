import { isIP } from 'node:net';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { DEFAULT_SCRYPT_LOG_N, MIN_PRODUCTION_SCRYPT_LOG_N } from '../auth/password.util';

/**
 * The service's whole configuration (SPEC §9), read once from the environment and validated.
 * This module is the only place that knows environment variable names; everything else is
 * handed an `AppConfig`.
 */
export interface AppConfig {
  readonly nodeEnv: 'development' | 'production' | 'test';
  readonly port: number;
  readonly host: string;
  /**
   * Where `GET /metrics` is served (SPEC §8g), on `host`: a listener of its own, so the metrics
   * are reachable only where this port is exposed. `undefined`: no metrics (and no per-request
   * instrumentation at all).
   */
  readonly metricsPort: number | undefined;
  /** External Postgres; `undefined` selects the embedded database under `dataDir`. */
  readonly databaseUrl: string | undefined;
  /**
   * A direct connection to Postgres for what needs a session of its own: LISTEN (the
   * notification bus) and migrations (under a session-level advisory lock). Needed when
   * `databaseUrl` goes through a transaction-pooling proxy such as PgBouncer, which keeps no
   * session between transactions. Default: `databaseUrl`.
   */
  readonly databaseDirectUrl: string | undefined;
  /**
   * How long a query waits for a database connection — a new one, or a free one of the pool's —
   * before it fails (the request answers 503): `DATABASE_CONNECT_TIMEOUT`, default 5 s.
   */
  readonly databaseConnectTimeoutMs: number;
  /**
   * The role that owns the schema, for migrations only (issue 34 item 12): when set, the service
   * migrates through it and then grants `databaseUrl`'s role what the service does — every table
   * read and written, the audit log's only read and appended — so the role the service runs as
   * owns nothing and cannot switch the audit log's triggers off. Default: none (the service's own
   * role migrates, as `databaseDirectUrl`).
   */
  readonly databaseMigrationUrl: string | undefined;
  readonly dataDir: string;
  /** The built dashboard (`vite build` output) served at `/`. */
  readonly webDir: string;
  /**
   * The service's own built packages (the SDK tarball, the Python wheel, the MCP server tarball
   * and their `manifest.json`: `tools/scripts/build-downloads.mjs`), served at `/downloads/…`.
   */
  readonly downloadsDir: string;
  readonly apiKeyPrefix: string;
  readonly apiKeyPepper: string;
  /** True when no pepper was configured and the development default is in use. */
  readonly apiKeyPepperIsDefault: boolean;
  /**
   * The server secret the pagination cursors' keys are derived from (HKDF, one key per kind of
   * cursor: `@interlock/cursor`). Default: the pepper's value (keys still derived apart from
   * it); set `CURSOR_SECRET` so that the pepper and the cursor keys rotate independently.
   */
  readonly cursorSecret: string;
  readonly plans: { readonly free: PlanAllowances; readonly pro: PlanAllowances };
  readonly sessions: {
    /** Session messages older than this are deleted by the retention job (SPEC §8, issue 34). */
    readonly messageRetentionMs: number;
  };
  /** Argus (SPEC §8d). */
  readonly classification: {
    /** Rule matches (a rule's figures) older than this are deleted by the retention job. */
    readonly matchRetentionMs: number;
  };
  readonly signup: 'open' | 'closed';
  /** Accounts (SPEC §8f, issue 33). */
  readonly accounts: AccountsConfig;
  /** The service's own public origin, used for the CSRF origin check. */
  readonly publicOrigin: string;
  /** Further browser origins (a separately hosted dashboard) allowed to send cookie requests. */
  readonly allowedOrigins: readonly string[];
  /** Where people open the dashboard (no trailing slash): the links MCP tools return. */
  readonly dashboardUrl: string;
  /** Single sign-on (SPEC §8f). */
  readonly sso: {
    /**
     * `SSO_DNS_SERVERS`: the name servers that look up domains' verification TXT records
     * (`ip`, `ip:port`, `[ipv6]:port`); empty: the system's resolvers.
     */
    readonly dnsServers: readonly string[];
    /** Each try of a TXT look-up (two tries). */
    readonly dnsTimeoutMs: number;
    /** `SSO_DOMAIN_RECHECK_INTERVAL`: how often a proven domain's record is looked up again. */
    readonly domainRecheckIntervalMs: number;
    /** `SSO_DOMAIN_RECHECK_FAILURES`: look-ups in a row without the record that withdraw the proof. */
    readonly domainRecheckFailures: number;
  };
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /**
   * `json`: one JSON object a line (for log collectors); `pretty`: lines for a person;
   * `auto` (default): pretty when standard output is a terminal, else JSON.
   */
  readonly logFormat: 'auto' | 'json' | 'pretty';
  /** How many proxy hops to trust for the client address (both adapters' `trustProxy`). */
  readonly trustProxy: number;
  /** The HTTP adapter NestJS runs on (`HTTP_ADAPTER`): `express` or `fastify`. */
  readonly httpAdapter: 'express' | 'fastify';
  /** How long a graceful shutdown may take before the process exits anyway. */
  readonly shutdownTimeoutMs: number;
  /**
   * After SIGTERM, how long to keep serving (readiness already 503, every response with
   * `Connection: close`) before refusing new connections: time for a load balancer's health
   * checks to take the instance out of rotation.
   */
  readonly shutdownDrainDelayMs: number;
  /** SPEC §8b. A count of 0 turns that limit off. */
  readonly rateLimits: RateLimitsConfig;
  /** Open event streams (GET /api/events, the Live View) this instance holds (issue 34). A count of 0 turns that cap off. */
  readonly streams: StreamLimitsConfig;
  /** Held waits (`GET /api/interrupts/{id}?waitSeconds=N`) this instance holds (SPEC §8e). A count of 0 turns that cap off. */
  readonly waits: WaitLimitsConfig;
  readonly webhooks: WebhookConfig;
  readonly mail: MailConfig;
  readonly notifications: NotificationConfig;
}

/** People's accounts (SPEC §8f). */
export interface AccountsConfig {
  /**
   * scrypt's cost as log2(N) for new password hashes (`PASSWORD_SCRYPT_LOG_N`, default 17, the
   * OWASP figure; production refuses less). Hashes of another cost are replaced at sign-in.
   */
  readonly passwordScryptLogN: number;
  /** A password reset link's life. */
  readonly passwordResetTtlMs: number;
  /** A sign-in session unused this long ends (`SESSION_IDLE_TIMEOUT`, default 7 days), beside its absolute 30 days. */
  readonly sessionIdleTimeoutMs: number;
  /**
   * `EMAIL_VERIFICATION`: `required` — accepting an invitation into an existing account,
   * receiving notifications, turning on two-factor sign-in and changing the address wait for a
   * verified address; `optional` — links are still sent and
   * the state shown, but nothing waits for it. Default `required` when `SMTP_URL` is set (the
   * service can prove an address), else `optional` (without email no address could ever be).
   */
  readonly emailVerification: 'required' | 'optional';
  /**
   * `SIGN_UP_CONFIRMATION` (SPEC §8f): `link` — sign-up answers 202 alike for every address and
   * emails a link that finishes it (or, to a taken address, a note saying so), so nobody learns
   * which addresses have accounts; `instant` — sign-up signs in at once and a taken address
   * answers 409. Default `link` where `EMAIL_VERIFICATION` is `required`, else `instant`.
   */
  readonly signUpConfirmation: 'link' | 'instant';
  /** An email verification link's life (24 hours). */
  readonly emailVerificationTtlMs: number;
}

/** Email (SPEC §8f). */
/** What one plan includes (SPEC §8): monthly allowances, and quotas on what is held at once. */
export interface PlanAllowances {
  /** Interrupts opened a month. */
  readonly messages: number;
  /** Agent hours (summed session time) a month. */
  readonly agentHours: number;
  /** Bytes of session-message content stored at once (UTF-8, the messages' `content`). */
  readonly sessionMessageBytes: number;
  /** Sessions active at once. */
  readonly activeSessions: number;
}

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;
/** 1 PiB: far beyond any plan, and an exact integer in JavaScript and in Postgres's bigint. */
const MAX_BYTES = 1024 * 1024 * GIB;

export interface MailConfig {
  /** `smtp://` or `smtps://`, with optional credentials; undefined: email is off. */
  readonly smtpUrl: string | undefined;
  /** The From header, e.g. `Interlock <interlock@example.com>`. */
  readonly from: string;
  /** The right-hand side of the Message-IDs the service makes. */
  readonly messageIdDomain: string;
  /** SMTP connections per instance. */
  readonly maxConnections: number;
  /** Without `smtpUrl`, outside production: where each message is written as an `.eml` file. */
  readonly outboxDir: string;
}

/** Notification delivery (issue 30). */
export interface NotificationConfig {
  /** The wait before each retry; after the last, the notification has failed. */
  readonly retryScheduleMs: readonly number[];
  /** How often an idle worker looks for due notifications. */
  readonly pollMs: number;
  /** Messages being sent at once per instance. */
  readonly concurrency: number;
  /** Slack's Web API base (`SLACK_API_URL`, default `https://slack.com/api/`): tests point it at a local server. */
  readonly slackApiUrl: string;
}

export interface RateLimitsConfig {
  /** Failed sign-ins per account (email, known or not) and per client address, per window. */
  readonly signIn: {
    /** Failures per account from one client address (IPv6 by /64), per window. */
    readonly accountFailures: number;
    /** Failures from one client address, any accounts, per window. */
    readonly addressFailures: number;
    readonly windowSeconds: number;
    /** The backstop: failures per account from every address together, per its own window. */
    readonly accountBackstopFailures: number;
    readonly accountBackstopWindowSeconds: number;
    /**
     * How long a client address (IPv6 by /64) stays known to an account after a sign-in or a
     * password reset from it succeeded; the backstop neither counts nor refuses a known address
     * (0: no address is known, the backstop counts every failure).
     */
    readonly knownAddressSeconds: number;
  };
  /** Sign-up attempts per account (email) and per client address, per window. */
  readonly signUp: {
    readonly accountAttempts: number;
    readonly addressAttempts: number;
    readonly windowSeconds: number;
  };
  /**
   * Password reset requests (SPEC §8f): per client address (over it: 429) and emails per account
   * (over it: still 202, no further email — a stranger cannot lock the owner out with 429s).
   */
  readonly passwordReset: {
    readonly accountEmails: number;
    readonly addressRequests: number;
    readonly windowSeconds: number;
  };
  /**
   * Single sign-on starts (`POST /api/auth/sso`, SPEC §8b) per client address (IPv6 by /64) per
   * window: each looks a domain up and may read the provider's discovery document.
   */
  readonly ssoStart: { readonly addressRequests: number; readonly windowSeconds: number };
  /**
   * Single sign-on domain proofs (`POST /api/organisation/sso/domains/verify`, SPEC §8b) that
   * reach the DNS look-up, per organisation per window: each asks the resolver again.
   */
  readonly ssoDomainVerify: {
    readonly organisationRequests: number;
    readonly windowSeconds: number;
  };
  /** Verification emails a signed-in person may ask for per window (SPEC §8f; over it: 429). */
  readonly emailVerification: { readonly emails: number; readonly windowSeconds: number };
  /** Requests one organisation's keys may make per window, all keys and instances together. */
  readonly apiKey: { readonly requests: number; readonly windowSeconds: number };
  /** Writes one person (a signed-in user) may make per window on human write routes, every organisation together. */
  readonly memberWrites: { readonly writes: number; readonly windowSeconds: number };
  /** Writes of each costly kind (`@CostlyWrite`: webhook tests, organisations, invitations, roles) one person may make per window. */
  readonly memberCostlyWrites: { readonly writes: number; readonly windowSeconds: number };
}

/** Caps on open event streams, counted on this instance (SPEC §8b). */
export interface StreamLimitsConfig {
  /** Streams one person may hold open, every organisation and both feeds together. */
  readonly perMember: number;
  /** Streams one organisation's members may hold open. */
  readonly perOrganisation: number;
  /** Streams the instance holds open in all; past it, 503 (another instance may have room). */
  readonly perInstance: number;
}

/** Caps on held waits (`?waitSeconds`), counted on this instance (SPEC §8e). */
export interface WaitLimitsConfig {
  /** Waits one organisation's callers may have held on this instance at once. */
  readonly perOrganisation: number;
  /**
   * Waits the instance holds in all; past it, 503 (another instance may have room). Undefined when
   * `WAITS_MAX_PER_INSTANCE` is not set: then what the process's heap holds, at most 20,000
   * (`instanceWaitLimit`, worked out at start).
   */
  readonly perInstance: number | undefined;
}

/** Webhook delivery (SPEC §8a). */
export interface WebhookConfig {
  /**
   * The wait before each retry: a delivery is attempted once, then once after each of these;
   * after the last, it has failed. Default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (~27 h).
   */
  readonly retryScheduleMs: readonly number[];
  /** How long one attempt may take, connection to last byte. */
  readonly timeoutMs: number;
  /** An endpoint whose every attempt has failed for this long is disabled. */
  readonly disableAfterMs: number;
  /** How often an idle worker looks for due deliveries (changes on this instance wake it at once). */
  readonly pollMs: number;
  /** Deliveries in flight per instance, and per endpoint per instance. */
  readonly concurrency: number;
  readonly endpointConcurrency: number;
  /** Delivered and failed deliveries, and their events, are deleted after this long. */
  readonly retentionMs: number;
}

const DURATION_UNITS: Record<string, number> = {
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/** `250ms`, `5s`, `30m`, `2h`, `5d` → milliseconds; undefined when malformed. */
export function parseDuration(raw: string): number | undefined {
  const match = /^(\d{1,9})(ms|s|m|h|d)$/.exec(raw.trim());
  return match === null ? undefined : Number(match[1]) * DURATION_UNITS[match[2]];
}

/** Development-only pepper; refused when NODE_ENV=production. */
export const DEVELOPMENT_PEPPER = 'interlock-development-pepper-not-for-production';

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Readonly<Record<string, string | undefined>>;

/** Reads and validates every variable; throws one `ConfigError` that lists every bad value. */
export function loadConfig(env: Env, cwd: string = process.cwd()): AppConfig {
  const problems: string[] = [];
  const read = (name: string): string | undefined => {
    const value = env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };
  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      problems.push(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return Number(raw);
  };
  const oneOf = <T extends string>(name: string, allowed: readonly T[], fallback: T): T => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    if (!(allowed as readonly string[]).includes(raw)) {
      problems.push(`${name} must be one of ${allowed.join(', ')} (got "${raw}")`);
      return fallback;
    }
    return raw as T;
  };
  const origin = (name: string, raw: string): string => {
    try {
      const url = new URL(raw);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('scheme');
      return url.origin;
    } catch {
      problems.push(
        `${name} must be an http(s) origin such as https://interlock.example.com (got "${raw}")`,
      );
      return raw;
    }
  };

  const nodeEnv = oneOf('NODE_ENV', ['development', 'production', 'test'], 'development');
  const port = integer('PORT', 3000, 0, 65535);
  const host = read('HOST') ?? '0.0.0.0';
  const metricsPort =
    read('METRICS_PORT') === undefined ? undefined : integer('METRICS_PORT', 0, 0, 65535);
  if (metricsPort !== undefined && metricsPort !== 0 && metricsPort === port) {
    problems.push(
      `METRICS_PORT must differ from PORT (${port}): the metrics have a listener of their own`,
    );
  }

  const postgresUrl = (name: string): string | undefined => {
    const value = read(name);
    if (value === undefined) return undefined;
    let protocol = '';
    try {
      protocol = new URL(value).protocol;
    } catch {
      // reported below
    }
    if (protocol !== 'postgres:' && protocol !== 'postgresql:') {
      problems.push(`${name} must be a postgres:// or postgresql:// connection URL`);
    }
    return value;
  };
  const databaseUrl = postgresUrl('DATABASE_URL');
  // DATABASE_LISTEN_URL is the setting's earlier name (it carried LISTEN only), still accepted.
  const directUrl = postgresUrl('DATABASE_DIRECT_URL');
  const listenUrl = postgresUrl('DATABASE_LISTEN_URL');
  if (directUrl !== undefined && listenUrl !== undefined && directUrl !== listenUrl) {
    problems.push(
      'DATABASE_LISTEN_URL is the earlier name of DATABASE_DIRECT_URL: set only DATABASE_DIRECT_URL',
    );
  }
  const databaseDirectUrl = directUrl ?? listenUrl;
  if (databaseDirectUrl !== undefined && databaseUrl === undefined) {
    problems.push(
      'DATABASE_DIRECT_URL needs DATABASE_URL (the embedded database has no separate connection)',
    );
  }
  const databaseMigrationUrl = postgresUrl('DATABASE_MIGRATION_URL');
  if (databaseMigrationUrl !== undefined && databaseUrl === undefined) {
    problems.push('DATABASE_MIGRATION_URL needs DATABASE_URL (the embedded database has one role)');
  }
  if (
    databaseMigrationUrl !== undefined &&
    databaseUrl !== undefined &&
    new URL(databaseUrl).username === ''
  ) {
    problems.push(
      "DATABASE_MIGRATION_URL needs DATABASE_URL to name the service's role (postgres://<role>@…)",
    );
  }
  const dataDirRaw = read('DATA_DIR') ?? '.data';
  const dataDir = isAbsolute(dataDirRaw) ? dataDirRaw : resolve(cwd, dataDirRaw);
  const webDirRaw = read('WEB_DIR') ?? 'dist/apps/web';
  const webDir = isAbsolute(webDirRaw) ? webDirRaw : resolve(cwd, webDirRaw);
  const downloadsDirRaw = read('DOWNLOADS_DIR') ?? 'dist/downloads';
  const downloadsDir = isAbsolute(downloadsDirRaw)
    ? downloadsDirRaw
    : resolve(cwd, downloadsDirRaw);

  const apiKeyPrefix = read('API_KEY_PREFIX') ?? 'ilk_';
  if (!/^[a-z][a-z0-9]{0,15}_$/.test(apiKeyPrefix)) {
    problems.push(
      `API_KEY_PREFIX must be 1–16 lowercase letters or digits, starting with a letter and ending in "_" (got "${apiKeyPrefix}")`,
    );
  }
  const pepper = read('API_KEY_PEPPER');
  if (pepper === undefined && nodeEnv === 'production') {
    problems.push(
      'API_KEY_PEPPER is required when NODE_ENV=production (use 32 or more random bytes)',
    );
  } else if (pepper !== undefined && pepper.length < 32) {
    problems.push('API_KEY_PEPPER must be at least 32 characters long');
  }
  const passwordScryptLogN = integer('PASSWORD_SCRYPT_LOG_N', DEFAULT_SCRYPT_LOG_N, 10, 20);
  if (nodeEnv === 'production' && passwordScryptLogN < MIN_PRODUCTION_SCRYPT_LOG_N) {
    problems.push(
      `PASSWORD_SCRYPT_LOG_N must be at least ${MIN_PRODUCTION_SCRYPT_LOG_N} when NODE_ENV=production (got ${passwordScryptLogN}): lower costs are for test suites only`,
    );
  }
  const cursorSecret = read('CURSOR_SECRET');
  if (cursorSecret !== undefined && cursorSecret.length < 32) {
    problems.push('CURSOR_SECRET must be at least 32 characters long');
  }

  const publicOriginRaw = read('PUBLIC_ORIGIN');
  const publicOrigin =
    publicOriginRaw === undefined
      ? `http://localhost:${port}`
      : origin('PUBLIC_ORIGIN', publicOriginRaw);
  const allowedOrigins = (read('ALLOWED_ORIGINS') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((s) => origin('ALLOWED_ORIGINS', s));

  // The dashboard is served at `/` of the service unless it is hosted elsewhere.
  const dashboardUrlRaw = read('DASHBOARD_URL');
  let dashboardUrl = publicOrigin;
  if (dashboardUrlRaw !== undefined) {
    try {
      const url = new URL(dashboardUrlRaw);
      if (
        (url.protocol !== 'http:' && url.protocol !== 'https:') ||
        url.search !== '' ||
        url.hash !== ''
      )
        throw new Error('shape');
      dashboardUrl = `${url.origin}${url.pathname}`.replace(/\/+$/, '');
    } catch {
      problems.push(
        `DASHBOARD_URL must be an http(s) URL such as https://interlock.example.com or https://example.com/interlock (got "${dashboardUrlRaw}")`,
      );
    }
  }

  const slackApiUrlRaw = read('SLACK_API_URL') ?? 'https://slack.com/api/';
  let slackApiUrl = 'https://slack.com/api/';
  try {
    const url = new URL(slackApiUrlRaw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('shape');
    slackApiUrl = `${url.origin}${url.pathname.replace(/\/*$/, '/')}`;
  } catch {
    problems.push(
      `SLACK_API_URL must be an http(s) URL such as https://slack.com/api/ (got "${slackApiUrlRaw}")`,
    );
  }

  const ssoDnsServers = (read('SSO_DNS_SERVERS') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  for (const server of ssoDnsServers) {
    if (!isDnsServer(server))
      problems.push(
        `SSO_DNS_SERVERS must list name servers as ip, ip:port or [ipv6]:port separated by commas (got "${server}")`,
      );
  }

  const shutdownTimeoutMs = integer('SHUTDOWN_TIMEOUT_MS', 25_000, 0, 600_000);
  // Behind a balancer (production) the instance keeps serving while health checks notice it is
  // leaving; a single development process stops at once.
  const shutdownDrainDelayMs = integer(
    'SHUTDOWN_DRAIN_DELAY_MS',
    nodeEnv === 'production' ? 5_000 : 0,
    0,
    600_000,
  );
  if (shutdownDrainDelayMs > 0 && shutdownDrainDelayMs >= shutdownTimeoutMs) {
    problems.push(
      `SHUTDOWN_DRAIN_DELAY_MS (${shutdownDrainDelayMs}) must be shorter than SHUTDOWN_TIMEOUT_MS (${shutdownTimeoutMs}), which also covers finishing in-flight requests`,
    );
  }

  const duration = (name: string, fallback: string, min: number, max: number): number => {
    const raw = read(name) ?? fallback;
    const ms = parseDuration(raw);
    if (ms === undefined || ms < min || ms > max) {
      problems.push(
        `${name} must be a duration such as 500ms, 10s, 5m, 2h or 5d, from ${min} ms to ${max / 86_400_000} days (got "${raw}")`,
      );
      return parseDuration(fallback) as number;
    }
    return ms;
  };
  const retryRaw = read('WEBHOOK_RETRY_SCHEDULE') ?? '5s,5m,30m,2h,5h,10h,10h';
  const retryScheduleMs = retryRaw.split(',').map((part) => parseDuration(part));
  if (
    retryScheduleMs.length > 20 ||
    retryScheduleMs.some((ms) => ms === undefined || ms > 7 * 86_400_000)
  ) {
    problems.push(
      `WEBHOOK_RETRY_SCHEDULE must be up to 20 comma-separated durations of at most 7 days, such as 5s,5m,30m,2h (got "${retryRaw}")`,
    );
  }

  const smtpUrl = read('SMTP_URL');
  if (smtpUrl !== undefined) {
    let protocol = '';
    try {
      protocol = new URL(smtpUrl).protocol;
    } catch {
      // reported below
    }
    if (protocol !== 'smtp:' && protocol !== 'smtps:') {
      problems.push(
        'SMTP_URL must be an smtp:// or smtps:// URL such as smtps://user:password@smtp.example.com',
      );
    }
  }
  const publicHost = (() => {
    try {
      return new URL(publicOrigin).hostname;
    } catch {
      return 'localhost';
    }
  })();
  const mailFrom = read('MAIL_FROM') ?? `Interlock <interlock@${publicHost}>`;
  const fromAddress =
    /<([^<>\s]+@[^<>\s]+)>\s*$/.exec(mailFrom)?.[1] ??
    (/^[^<>\s]+@[^<>\s]+$/.test(mailFrom) ? mailFrom : undefined);
  if (fromAddress === undefined) {
    problems.push(
      `MAIL_FROM must be an address such as interlock@example.com or Interlock <interlock@example.com> (got "${mailFrom}")`,
    );
  }
  const notificationRetryRaw = read('NOTIFICATION_RETRY_SCHEDULE') ?? '30s,2m,10m,1h,6h';
  const notificationRetryMs = notificationRetryRaw.split(',').map((part) => parseDuration(part));
  if (
    notificationRetryMs.length > 20 ||
    notificationRetryMs.some((ms) => ms === undefined || ms > 7 * 86_400_000)
  ) {
    problems.push(
      `NOTIFICATION_RETRY_SCHEDULE must be up to 20 comma-separated durations of at most 7 days, such as 30s,2m,10m (got "${notificationRetryRaw}")`,
    );
  }

  const emailVerification = oneOf(
    'EMAIL_VERIFICATION',
    ['required', 'optional'],
    smtpUrl === undefined ? 'optional' : 'required',
  );
  const signUpConfirmation = oneOf(
    'SIGN_UP_CONFIRMATION',
    ['link', 'instant'],
    emailVerification === 'required' ? 'link' : 'instant',
  );
  // In production without SMTP_URL no email is sent (SPEC §8f): a setting that waits on an
  // emailed link would lock every newcomer out, so it is refused at start-up, not discovered later.
  if (nodeEnv === 'production' && smtpUrl === undefined) {
    if (signUpConfirmation === 'link')
      problems.push(
        'SIGN_UP_CONFIRMATION=link finishes each sign-up through an emailed link, and without SMTP_URL no email is sent in production: set SMTP_URL, or SIGN_UP_CONFIRMATION=instant',
      );
    if (emailVerification === 'required')
      problems.push(
        'EMAIL_VERIFICATION=required proves each address through an emailed link, and without SMTP_URL no email is sent in production: set SMTP_URL, or EMAIL_VERIFICATION=optional',
      );
  }
  const config: AppConfig = {
    nodeEnv,
    port,
    host,
    metricsPort,
    databaseUrl,
    databaseDirectUrl: databaseDirectUrl ?? databaseUrl,
    databaseConnectTimeoutMs: duration('DATABASE_CONNECT_TIMEOUT', '5s', 100, 86_400_000),
    databaseMigrationUrl,
    dataDir,
    webDir,
    downloadsDir,
    apiKeyPrefix,
    apiKeyPepper: pepper ?? DEVELOPMENT_PEPPER,
    apiKeyPepperIsDefault: pepper === undefined,
    cursorSecret: cursorSecret ?? pepper ?? DEVELOPMENT_PEPPER,
    plans: {
      free: {
        messages: integer('PLAN_FREE_MESSAGES', 1000, 0, 1_000_000_000),
        agentHours: integer('PLAN_FREE_AGENT_HOURS', 50, 0, 10_000_000),
        sessionMessageBytes: integer('PLAN_FREE_SESSION_MESSAGE_BYTES', 100 * MIB, 0, MAX_BYTES),
        activeSessions: integer('PLAN_FREE_ACTIVE_SESSIONS', 25, 0, 1_000_000),
      },
      pro: {
        messages: integer('PLAN_PRO_MESSAGES', 50_000, 0, 1_000_000_000),
        agentHours: integer('PLAN_PRO_AGENT_HOURS', 1000, 0, 10_000_000),
        sessionMessageBytes: integer('PLAN_PRO_SESSION_MESSAGE_BYTES', 10 * GIB, 0, MAX_BYTES),
        activeSessions: integer('PLAN_PRO_ACTIVE_SESSIONS', 1000, 0, 1_000_000),
      },
    },
    sessions: {
      messageRetentionMs: duration('SESSION_MESSAGE_RETENTION', '90d', 60_000, 3650 * 86_400_000),
    },
    classification: {
      matchRetentionMs: duration(
        'CLASSIFICATION_MATCH_RETENTION',
        '90d',
        60_000,
        3650 * 86_400_000,
      ),
    },
    signup: oneOf('SIGNUP', ['open', 'closed'], 'open'),
    publicOrigin,
    allowedOrigins,
    dashboardUrl,
    sso: {
      dnsServers: ssoDnsServers,
      dnsTimeoutMs: duration('SSO_DNS_TIMEOUT', '2s', 100, 30_000),
      domainRecheckIntervalMs: duration(
        'SSO_DOMAIN_RECHECK_INTERVAL',
        '1d',
        60_000,
        30 * 86_400_000,
      ),
      domainRecheckFailures: integer('SSO_DOMAIN_RECHECK_FAILURES', 3, 1, 30),
    },
    logLevel: oneOf(
      'LOG_LEVEL',
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
      nodeEnv === 'test' ? 'silent' : 'info',
    ),
    logFormat: oneOf('LOG_FORMAT', ['auto', 'json', 'pretty'], 'auto'),
    trustProxy: integer('TRUST_PROXY', 0, 0, 10),
    httpAdapter: oneOf('HTTP_ADAPTER', ['express', 'fastify'], 'fastify'),
    shutdownTimeoutMs,
    shutdownDrainDelayMs,
    accounts: {
      passwordScryptLogN,
      passwordResetTtlMs: 30 * 60_000,
      sessionIdleTimeoutMs: duration('SESSION_IDLE_TIMEOUT', '7d', 60_000, 30 * 86_400_000),
      emailVerification,
      signUpConfirmation,
      emailVerificationTtlMs: 24 * 60 * 60_000,
    },
    rateLimits: {
      signIn: {
        accountFailures: integer('RATE_LIMIT_SIGN_IN_ACCOUNT_FAILURES', 10, 0, 1_000_000),
        addressFailures: integer('RATE_LIMIT_SIGN_IN_ADDRESS_FAILURES', 100, 0, 1_000_000),
        windowSeconds: integer('RATE_LIMIT_SIGN_IN_WINDOW_SECONDS', 900, 1, 86_400),
        accountBackstopFailures: integer(
          'RATE_LIMIT_SIGN_IN_ACCOUNT_BACKSTOP_FAILURES',
          100,
          0,
          1_000_000,
        ),
        accountBackstopWindowSeconds: integer(
          'RATE_LIMIT_SIGN_IN_ACCOUNT_BACKSTOP_WINDOW_SECONDS',
          86_400,
          1,
          7 * 86_400,
        ),
        knownAddressSeconds: integer('RATE_LIMIT_SIGN_IN_KNOWN_ADDRESS_DAYS', 90, 0, 366) * 86_400,
      },
      signUp: {
        accountAttempts: integer('RATE_LIMIT_SIGN_UP_ACCOUNT_ATTEMPTS', 5, 0, 1_000_000),
        addressAttempts: integer('RATE_LIMIT_SIGN_UP_ADDRESS_ATTEMPTS', 20, 0, 1_000_000),
        windowSeconds: integer('RATE_LIMIT_SIGN_UP_WINDOW_SECONDS', 3_600, 1, 86_400),
      },
      passwordReset: {
        accountEmails: integer('RATE_LIMIT_PASSWORD_RESET_ACCOUNT_EMAILS', 3, 0, 1_000_000),
        addressRequests: integer('RATE_LIMIT_PASSWORD_RESET_ADDRESS_REQUESTS', 20, 0, 1_000_000),
        windowSeconds: integer('RATE_LIMIT_PASSWORD_RESET_WINDOW_SECONDS', 3_600, 1, 86_400),
      },
      ssoStart: {
        addressRequests: integer('RATE_LIMIT_SSO_START_ADDRESS_REQUESTS', 60, 0, 1_000_000),
        windowSeconds: integer('RATE_LIMIT_SSO_START_WINDOW_SECONDS', 900, 1, 86_400),
      },
      ssoDomainVerify: {
        organisationRequests: integer('RATE_LIMIT_SSO_DOMAIN_VERIFY_REQUESTS', 30, 0, 1_000_000),
        windowSeconds: integer('RATE_LIMIT_SSO_DOMAIN_VERIFY_WINDOW_SECONDS', 900, 1, 86_400),
      },
      emailVerification: {
        emails: integer('RATE_LIMIT_EMAIL_VERIFICATION_EMAILS', 5, 0, 1_000_000),
        windowSeconds: 3_600,
      },
      apiKey: {
        requests: integer('RATE_LIMIT_API_KEY_REQUESTS', 6_000, 0, 1_000_000_000),
        windowSeconds: integer('RATE_LIMIT_API_KEY_WINDOW_SECONDS', 60, 1, 86_400),
      },
      memberWrites: {
        writes: integer('RATE_LIMIT_MEMBER_WRITES', 600, 0, 1_000_000),
        windowSeconds: integer('RATE_LIMIT_MEMBER_WRITES_WINDOW_SECONDS', 60, 1, 86_400),
      },
      memberCostlyWrites: {
        writes: integer('RATE_LIMIT_MEMBER_COSTLY_WRITES', 100, 0, 1_000_000),
        windowSeconds: integer('RATE_LIMIT_MEMBER_COSTLY_WRITES_WINDOW_SECONDS', 3_600, 1, 86_400),
      },
    },
    streams: {
      perMember: integer('STREAMS_MAX_PER_MEMBER', 20, 0, 1_000_000),
      perOrganisation: integer('STREAMS_MAX_PER_ORGANISATION', 500, 0, 1_000_000),
      perInstance: integer('STREAMS_MAX_PER_INSTANCE', 10_000, 0, 1_000_000),
    },
    waits: {
      perOrganisation: integer('WAITS_MAX_PER_ORGANISATION', 10_000, 0, 1_000_000),
      perInstance:
        read('WAITS_MAX_PER_INSTANCE') === undefined
          ? undefined
          : integer('WAITS_MAX_PER_INSTANCE', 0, 0, 1_000_000),
    },
    webhooks: {
      retryScheduleMs: retryScheduleMs.map((ms) => ms ?? 0),
      timeoutMs: duration('WEBHOOK_TIMEOUT', '10s', 100, 60_000),
      disableAfterMs: duration('WEBHOOK_DISABLE_AFTER', '5d', 1_000, 90 * 86_400_000),
      pollMs: duration('WEBHOOK_POLL_INTERVAL', '1s', 10, 60_000),
      concurrency: integer('WEBHOOK_CONCURRENCY', 32, 1, 1000),
      endpointConcurrency: integer('WEBHOOK_ENDPOINT_CONCURRENCY', 8, 1, 1000),
      retentionMs: duration('WEBHOOK_RETENTION', '30d', 60_000, 3650 * 86_400_000),
    },
    mail: {
      smtpUrl,
      from: mailFrom,
      messageIdDomain: fromAddress?.split('@')[1] ?? publicHost,
      maxConnections: integer('SMTP_MAX_CONNECTIONS', 5, 1, 100),
      outboxDir: resolve(cwd, read('MAIL_DIR') ?? join(tmpdir(), 'interlock-mail')),
    },
    notifications: {
      retryScheduleMs: notificationRetryMs.map((ms) => ms ?? 0),
      pollMs: duration('NOTIFICATION_POLL_INTERVAL', '1s', 10, 60_000),
      concurrency: integer('NOTIFICATION_CONCURRENCY', 16, 1, 1000),
      slackApiUrl,
    },
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** `ip`, `ip:port` or `[ipv6]:port` (a port from 1 to 65535): what `dns.Resolver#setServers` takes. */
function isDnsServer(raw: string): boolean {
  if (isIP(raw) !== 0) return true;
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|(\d{1,3}(?:\.\d{1,3}){3})):(\d{1,5})$/.exec(raw);
  if (match === null) return false;
  const host = match[1] ?? match[2] ?? '';
  const port = Number(match[3]);
  return (
    isIP(host) !== 0 && (match[1] === undefined || isIP(host) === 6) && port >= 1 && port <= 65_535
  );
}

/** The process's configuration: the only read of `process.env` in the service. */
export function configFromEnvironment(): AppConfig {
  return loadConfig(process.env);
}

/**
 * The variables OpenTelemetry reads (`OTEL_*`, SPEC §8g): tracing starts before the rest of the
 * configuration is read (`tracing/start.ts`, before anything loads `pg`), and its SDK reads its
 * own variables itself.
 */
export function tracingEnvironment(): NodeJS.ProcessEnv {
  return process.env;
}
