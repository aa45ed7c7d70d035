import { ConfigError, DEVELOPMENT_PEPPER, loadConfig } from './app-config';

const PEPPER = 'p'.repeat(32);

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env, '/srv/interlock');
  } catch (error) {
    if (error instanceof ConfigError) return [...error.problems];
    throw error;
  }
  return [];
}

describe('loadConfig', () => {
  it('has the SPEC §9 defaults', () => {
    const config = loadConfig({}, '/srv/interlock');
    expect(config).toMatchObject({
      port: 3000,
      metricsPort: undefined,
      databaseUrl: undefined,
      dataDir: '/srv/interlock/.data',
      webDir: '/srv/interlock/dist/apps/web',
      downloadsDir: '/srv/interlock/dist/downloads',
      apiKeyPrefix: 'ilk_',
      apiKeyPepper: DEVELOPMENT_PEPPER,
      apiKeyPepperIsDefault: true,
      plans: {
        free: { messages: 1000, agentHours: 50 },
        pro: { messages: 50000, agentHours: 1000 },
      },
      signup: 'open',
      publicOrigin: 'http://localhost:3000',
      dashboardUrl: 'http://localhost:3000',
      accounts: {
        passwordScryptLogN: 17,
        passwordResetTtlMs: 30 * 60_000,
        sessionIdleTimeoutMs: 7 * 86_400_000,
        emailVerification: 'optional',
        signUpConfirmation: 'instant',
        emailVerificationTtlMs: 24 * 60 * 60_000,
      },
      rateLimits: {
        signIn: { accountBackstopFailures: 100, knownAddressSeconds: 90 * 86_400 },
        ssoDomainVerify: { organisationRequests: 30, windowSeconds: 900 },
      },
    });
  });

  it('reads every variable', () => {
    const config = loadConfig(
      {
        NODE_ENV: 'production',
        PORT: '8080',
        METRICS_PORT: '9464',
        DATABASE_URL: 'postgres://u:p@pgbouncer:6432/interlock',
        DATABASE_DIRECT_URL: 'postgres://u:p@db:5432/interlock',
        DATA_DIR: '/var/lib/interlock',
        WEB_DIR: 'web',
        DOWNLOADS_DIR: '/srv/packages',
        API_KEY_PREFIX: 'acme_',
        API_KEY_PEPPER: PEPPER,
        PLAN_FREE_MESSAGES: '5',
        PLAN_PRO_MESSAGES: '10',
        PLAN_FREE_AGENT_HOURS: '1',
        PLAN_PRO_AGENT_HOURS: '2',
        SIGNUP: 'closed',
        PUBLIC_ORIGIN: 'https://interlock.example.com/',
        ALLOWED_ORIGINS: 'https://dash.example.com, https://other.example.com',
        DASHBOARD_URL: 'https://dash.example.com/interlock/',
      },
      '/x',
    );
    expect(config).toMatchObject({
      nodeEnv: 'production',
      port: 8080,
      metricsPort: 9464,
      databaseUrl: 'postgres://u:p@pgbouncer:6432/interlock',
      databaseDirectUrl: 'postgres://u:p@db:5432/interlock',
      dataDir: '/var/lib/interlock',
      webDir: '/x/web',
      downloadsDir: '/srv/packages',
      apiKeyPrefix: 'acme_',
      apiKeyPepper: PEPPER,
      apiKeyPepperIsDefault: false,
      plans: { free: { messages: 5, agentHours: 1 }, pro: { messages: 10, agentHours: 2 } },
      signup: 'closed',
      publicOrigin: 'https://interlock.example.com',
      allowedOrigins: ['https://dash.example.com', 'https://other.example.com'],
      dashboardUrl: 'https://dash.example.com/interlock',
    });
  });

  it('listens and migrates on DATABASE_URL unless DATABASE_DIRECT_URL (or its earlier name) says otherwise', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://db/x' }).databaseDirectUrl).toBe(
      'postgres://db/x',
    );
    expect(loadConfig({}).databaseDirectUrl).toBeUndefined();
    expect(
      loadConfig({ DATABASE_URL: 'postgres://pool/x', DATABASE_LISTEN_URL: 'postgres://db/x' })
        .databaseDirectUrl,
    ).toBe('postgres://db/x');
    expect(
      loadConfig({
        DATABASE_URL: 'postgres://pool/x',
        DATABASE_LISTEN_URL: 'postgres://db/x',
        DATABASE_DIRECT_URL: 'postgres://db/x',
      }).databaseDirectUrl,
    ).toBe('postgres://db/x');
  });

  it('derives cursor keys from CURSOR_SECRET, or else from the pepper', () => {
    const own = 'c'.repeat(40);
    expect(loadConfig({}).cursorSecret).toBe(DEVELOPMENT_PEPPER);
    expect(loadConfig({ API_KEY_PEPPER: PEPPER }).cursorSecret).toBe(PEPPER);
    expect(loadConfig({ API_KEY_PEPPER: PEPPER, CURSOR_SECRET: own })).toMatchObject({
      apiKeyPepper: PEPPER,
      cursorSecret: own,
    });
  });

  it('drains for 5 s before refusing connections in production, not at all in development, unless told', () => {
    expect(loadConfig({}).shutdownDrainDelayMs).toBe(0);
    expect(
      loadConfig({ NODE_ENV: 'production', API_KEY_PEPPER: PEPPER }).shutdownDrainDelayMs,
    ).toBe(5_000);
    expect(loadConfig({ SHUTDOWN_DRAIN_DELAY_MS: '1500' }).shutdownDrainDelayMs).toBe(1_500);
    expect(
      loadConfig({ NODE_ENV: 'production', API_KEY_PEPPER: PEPPER, SHUTDOWN_DRAIN_DELAY_MS: '0' })
        .shutdownDrainDelayMs,
    ).toBe(0);
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'not a url' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'postgres://db/x', DATABASE_DIRECT_URL: 'http://x' }, 'DATABASE_DIRECT_URL'],
    [{ DATABASE_URL: 'postgres://db/x', DATABASE_LISTEN_URL: 'http://x' }, 'DATABASE_LISTEN_URL'],
    [{ DATABASE_DIRECT_URL: 'postgres://db/x' }, 'DATABASE_DIRECT_URL needs DATABASE_URL'],
    [{ DATABASE_LISTEN_URL: 'postgres://db/x' }, 'DATABASE_DIRECT_URL needs DATABASE_URL'],
    [
      {
        DATABASE_URL: 'postgres://p/x',
        DATABASE_DIRECT_URL: 'postgres://a/x',
        DATABASE_LISTEN_URL: 'postgres://b/x',
      },
      'earlier name of DATABASE_DIRECT_URL',
    ],
    [
      { SHUTDOWN_DRAIN_DELAY_MS: '30000' },
      'SHUTDOWN_DRAIN_DELAY_MS (30000) must be shorter than SHUTDOWN_TIMEOUT_MS (25000)',
    ],
    [{ SHUTDOWN_DRAIN_DELAY_MS: '-1' }, 'SHUTDOWN_DRAIN_DELAY_MS'],
    [{ API_KEY_PREFIX: 'ilk' }, 'API_KEY_PREFIX'],
    [{ API_KEY_PREFIX: 'Bad_' }, 'API_KEY_PREFIX'],
    [{ API_KEY_PEPPER: 'short' }, 'API_KEY_PEPPER'],
    [{ CURSOR_SECRET: 'short' }, 'CURSOR_SECRET must be at least 32 characters long'],
    [{ NODE_ENV: 'production' }, 'API_KEY_PEPPER is required when NODE_ENV=production'],
    [
      { NODE_ENV: 'production', API_KEY_PEPPER: 'p'.repeat(32), PASSWORD_SCRYPT_LOG_N: '14' },
      'PASSWORD_SCRYPT_LOG_N must be at least 17 when NODE_ENV=production (got 14)',
    ],
    [{ NODE_ENV: 'production', API_KEY_PEPPER: 'p'.repeat(32), PASSWORD_SCRYPT_LOG_N: '18' }, null],
    [{ PASSWORD_SCRYPT_LOG_N: '14' }, null],
    [{ PASSWORD_SCRYPT_LOG_N: '9' }, 'PASSWORD_SCRYPT_LOG_N must be a whole number from 10 to 20'],
    [
      { RATE_LIMIT_PASSWORD_RESET_ACCOUNT_EMAILS: '-3' },
      'RATE_LIMIT_PASSWORD_RESET_ACCOUNT_EMAILS',
    ],
    [
      { RATE_LIMIT_SIGN_IN_KNOWN_ADDRESS_DAYS: '400' },
      'RATE_LIMIT_SIGN_IN_KNOWN_ADDRESS_DAYS must be a whole number from 0 to 366 (got "400")',
    ],
    [{ RATE_LIMIT_SIGN_IN_KNOWN_ADDRESS_DAYS: '0' }, null],
    [{ RATE_LIMIT_SSO_DOMAIN_VERIFY_REQUESTS: 'many' }, 'RATE_LIMIT_SSO_DOMAIN_VERIFY_REQUESTS'],
    [
      { RATE_LIMIT_SSO_DOMAIN_VERIFY_WINDOW_SECONDS: '0' },
      'RATE_LIMIT_SSO_DOMAIN_VERIFY_WINDOW_SECONDS',
    ],
    [{ SESSION_IDLE_TIMEOUT: '31d' }, 'SESSION_IDLE_TIMEOUT'],
    [{ SESSION_IDLE_TIMEOUT: '12h' }, null],
    [{ EMAIL_VERIFICATION: 'sometimes' }, 'EMAIL_VERIFICATION'],
    [{ SIGN_UP_CONFIRMATION: 'later' }, 'SIGN_UP_CONFIRMATION'],
    [
      { NODE_ENV: 'production', API_KEY_PEPPER: 'p'.repeat(32), SIGN_UP_CONFIRMATION: 'link' },
      'SIGN_UP_CONFIRMATION=link finishes each sign-up through an emailed link, and without SMTP_URL no email is sent in production: set SMTP_URL, or SIGN_UP_CONFIRMATION=instant',
    ],
    [
      {
        NODE_ENV: 'production',
        API_KEY_PEPPER: 'p'.repeat(32),
        EMAIL_VERIFICATION: 'required',
        SIGN_UP_CONFIRMATION: 'instant',
      },
      'EMAIL_VERIFICATION=required proves each address through an emailed link, and without SMTP_URL no email is sent in production: set SMTP_URL, or EMAIL_VERIFICATION=optional',
    ],
    [
      {
        NODE_ENV: 'production',
        API_KEY_PEPPER: 'p'.repeat(32),
        SMTP_URL: 'smtp://127.0.0.1:2525',
        SIGN_UP_CONFIRMATION: 'link',
      },
      null,
    ],
    [{ SIGN_UP_CONFIRMATION: 'link' }, null],
    [{ PLAN_FREE_MESSAGES: '-1' }, 'PLAN_FREE_MESSAGES'],
    [{ PLAN_PRO_MESSAGES: '1.5' }, 'PLAN_PRO_MESSAGES'],
    [{ PLAN_FREE_AGENT_HOURS: 'many' }, 'PLAN_FREE_AGENT_HOURS'],
    [{ PLAN_PRO_AGENT_HOURS: '' }, null],
    [{ SIGNUP: 'maybe' }, 'SIGNUP'],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV'],
    [{ PUBLIC_ORIGIN: 'ftp://x' }, 'PUBLIC_ORIGIN'],
    [{ DASHBOARD_URL: 'javascript:alert(1)' }, 'DASHBOARD_URL'],
    [{ DASHBOARD_URL: 'https://dash.example.com/?next=x' }, 'DASHBOARD_URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ WEBHOOK_RETRY_SCHEDULE: '5s,soon' }, 'WEBHOOK_RETRY_SCHEDULE'],
    [{ WEBHOOK_RETRY_SCHEDULE: '8d' }, 'WEBHOOK_RETRY_SCHEDULE'],
    [{ WEBHOOK_TIMEOUT: '10' }, 'WEBHOOK_TIMEOUT'],
    [{ WEBHOOK_TIMEOUT: '2m' }, 'WEBHOOK_TIMEOUT'],
    [{ WEBHOOK_DISABLE_AFTER: '0s' }, 'WEBHOOK_DISABLE_AFTER'],
    [{ WEBHOOK_POLL_INTERVAL: '1ms' }, 'WEBHOOK_POLL_INTERVAL'],
    [{ WEBHOOK_CONCURRENCY: '0' }, 'WEBHOOK_CONCURRENCY'],
    [{ WEBHOOK_ENDPOINT_CONCURRENCY: 'many' }, 'WEBHOOK_ENDPOINT_CONCURRENCY'],
    [{ WEBHOOK_RETENTION: '30' }, 'WEBHOOK_RETENTION'],
  ])('%j → a problem naming %s', (env, name) => {
    const problems = problemsOf(env);
    if (name === null) {
      expect(problems).toEqual([]);
    } else {
      expect(problems).toHaveLength(1);
      expect(problems[0]).toContain(name);
    }
  });

  it('links the dashboard at PUBLIC_ORIGIN unless DASHBOARD_URL says otherwise', () => {
    expect(loadConfig({ PUBLIC_ORIGIN: 'https://interlock.example.com' }).dashboardUrl).toBe(
      'https://interlock.example.com',
    );
    expect(loadConfig({ PORT: '8080' }).dashboardUrl).toBe('http://localhost:8080');
  });

  it('waits DATABASE_CONNECT_TIMEOUT for a database connection (default 5 s); a bad value is a config error', () => {
    expect(loadConfig({}).databaseConnectTimeoutMs).toBe(5_000);
    expect(loadConfig({ DATABASE_CONNECT_TIMEOUT: '1m' }).databaseConnectTimeoutMs).toBe(60_000);
    for (const bad of ['soon', '50ms', '2d'])
      expect(problemsOf({ DATABASE_CONNECT_TIMEOUT: bad })).toEqual([
        `DATABASE_CONNECT_TIMEOUT must be a duration such as 500ms, 10s, 5m, 2h or 5d, from 100 ms to 1 days (got "${bad}")`,
      ]);
  });

  it('caps held waits per organisation (default 10,000) and per instance only when WAITS_MAX_PER_INSTANCE is set (else the heap decides at start)', () => {
    expect(loadConfig({}).waits).toEqual({ perOrganisation: 10_000, perInstance: undefined });
    expect(loadConfig({ WAITS_MAX_PER_INSTANCE: '0' }).waits.perInstance).toBe(0);
    expect(loadConfig({ WAITS_MAX_PER_INSTANCE: '5000' }).waits.perInstance).toBe(5_000);
    expect(problemsOf({ WAITS_MAX_PER_INSTANCE: 'many' })).toEqual([
      'WAITS_MAX_PER_INSTANCE must be a whole number from 0 to 1000000 (got "many")',
    ]);
  });

  it('looks single sign-on domain proofs up at SSO_DNS_SERVERS, or the system resolvers; a bad entry is a config error (SPEC §8f)', () => {
    expect(loadConfig({}).sso).toEqual({
      dnsServers: [],
      dnsTimeoutMs: 2_000,
      domainRecheckIntervalMs: 86_400_000,
      domainRecheckFailures: 3,
    });
    expect(
      loadConfig({
        SSO_DNS_SERVERS: '10.0.0.53, 127.0.0.1:5353,[2001:db8::53]:53,2001:db8::1',
        SSO_DNS_TIMEOUT: '500ms',
        SSO_DOMAIN_RECHECK_INTERVAL: '6h',
        SSO_DOMAIN_RECHECK_FAILURES: '1',
      }).sso,
    ).toEqual({
      dnsServers: ['10.0.0.53', '127.0.0.1:5353', '[2001:db8::53]:53', '2001:db8::1'],
      dnsTimeoutMs: 500,
      domainRecheckIntervalMs: 6 * 3_600_000,
      domainRecheckFailures: 1,
    });
    expect(
      problemsOf({ SSO_DOMAIN_RECHECK_INTERVAL: '30s', SSO_DOMAIN_RECHECK_FAILURES: '0' }),
    ).toHaveLength(2);
    for (const bad of [
      'dns.example.com',
      '127.0.0.1:0',
      '10.0.0.1:70000',
      '[10.0.0.1]:53',
      '300.1.1.1',
    ])
      expect(problemsOf({ SSO_DNS_SERVERS: `10.0.0.53,${bad}` })).toEqual([
        `SSO_DNS_SERVERS must list name servers as ip, ip:port or [ipv6]:port separated by commas (got "${bad}")`,
      ]);
  });

  it('requires verified addresses by default only where email can prove them (SPEC §8f)', () => {
    const smtp = { SMTP_URL: 'smtp://127.0.0.1:2525' };
    expect(loadConfig({}).accounts.emailVerification).toBe('optional');
    expect(loadConfig(smtp).accounts.emailVerification).toBe('required');
    expect(loadConfig({ ...smtp, EMAIL_VERIFICATION: 'optional' }).accounts.emailVerification).toBe(
      'optional',
    );
    expect(loadConfig({ EMAIL_VERIFICATION: 'required' }).accounts.emailVerification).toBe(
      'required',
    );
  });

  it('confirms sign-ups by emailed link by default where addresses are verified (SPEC §8f)', () => {
    const smtp = { SMTP_URL: 'smtp://127.0.0.1:2525' };
    const confirmation = (env: Record<string, string>) =>
      loadConfig(env).accounts.signUpConfirmation;
    expect(confirmation({})).toBe('instant');
    expect(confirmation(smtp)).toBe('link');
    expect(confirmation({ ...smtp, EMAIL_VERIFICATION: 'optional' })).toBe('instant');
    expect(confirmation({ ...smtp, SIGN_UP_CONFIRMATION: 'instant' })).toBe('instant');
    expect(confirmation({ SIGN_UP_CONFIRMATION: 'link' })).toBe('link');
  });

  it('has the webhook defaults (SPEC §8a) and reads durations', () => {
    expect(loadConfig({}).webhooks).toEqual({
      retryScheduleMs: [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
      timeoutMs: 10_000,
      disableAfterMs: 5 * 86_400_000,
      pollMs: 1_000,
      concurrency: 32,
      endpointConcurrency: 8,
      retentionMs: 30 * 86_400_000,
    });
    const quick = loadConfig({
      WEBHOOK_RETRY_SCHEDULE: '250ms, 1s,2m',
      WEBHOOK_TIMEOUT: '500ms',
      WEBHOOK_DISABLE_AFTER: '1h',
    }).webhooks;
    expect([quick.retryScheduleMs, quick.timeoutMs, quick.disableAfterMs]).toEqual([
      [250, 1_000, 120_000],
      500,
      3_600_000,
    ]);
  });

  it('reports every bad variable at once', () => {
    const problems = problemsOf({ PORT: 'x', SIGNUP: 'y', PLAN_PRO_MESSAGES: 'z' });
    expect(problems).toHaveLength(3);
    expect(() => loadConfig({ PORT: 'x' })).toThrow(/Invalid configuration:\n {2}- PORT must be/);
  });
  it('serves metrics only on a port of their own (SPEC §8g)', () => {
    expect(problemsOf({ PORT: '8080', METRICS_PORT: '8080' })).toEqual([
      'METRICS_PORT must differ from PORT (8080): the metrics have a listener of their own',
    ]);
    expect(problemsOf({ METRICS_PORT: 'x' })).toEqual([
      'METRICS_PORT must be a whole number from 0 to 65535 (got "x")',
    ]);
    expect(loadConfig({ METRICS_PORT: '0' }).metricsPort).toBe(0);
  });
  it('reads LOG_FORMAT: auto by default, json or pretty', () => {
    expect(loadConfig({}).logFormat).toBe('auto');
    expect(loadConfig({ LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(problemsOf({ LOG_FORMAT: 'text' })).toEqual([
      'LOG_FORMAT must be one of auto, json, pretty (got "text")',
    ]);
  });
});
