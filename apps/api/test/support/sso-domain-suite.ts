import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { AfterAnswer } from '../../src/users/after-answer';
import { startDnsServer, type RunningDnsServer } from './dns-server';
import { signUpOwner, type SignedUpOwner } from './factories';
import { startOidcProvider, type RunningOidcProvider } from './oidc-provider';
import { SmtpSink } from './smtp-sink';
import { startTestApp, type TestApp } from './test-app';

/** The dashboard of the single sign-on domain suites, and its callback page. */
export const SSO_DASHBOARD = 'http://dashboard.test';
export const SSO_REDIRECT = `${SSO_DASHBOARD}/sso/callback`;
/** The one client the test provider knows in these suites. */
export const SSO_CLIENT = { client_id: 'interlock', client_secret: 'interlock-secret-0123456789' };

/** A domain as `GET /api/organisation/sso` shows it. */
export interface DomainShown {
  domain: string;
  verifiedAt: string | null;
  lastCheckedAt: string | null;
  failedChecks: number;
  recordName: string;
  recordValue: string;
}

/** What a single sign-on domain suite works with; the running parts are set before its first test. */
export interface SsoDomainSuite {
  t: TestApp;
  /** The real OpenID provider (it signs in any address). */
  op: RunningOidcProvider;
  /** The real name server the service asks for the domains' TXT records. */
  dns: RunningDnsServer;
  /** The real SMTP server the service sends through. */
  sink: SmtpSink;
  server: () => ReturnType<TestApp['app']['getHttpServer']>;
  http: () => ReturnType<typeof request>;
  db: () => DataSource;
  /** A domain no other test uses: `<name>-<8 hex>.test`. */
  newDomain: (name?: string) => string;
  /** `r` as `owner`, for their organisation. */
  as: (owner: SignedUpOwner, r: request.Test) => request.Test;
  managerRoleOf: (owner: SignedUpOwner) => Promise<string>;
  /** A new organisation that connects the test provider for `domains`, new members as Managers. */
  claim: (domains: string[], organisationName: string) => Promise<SignedUpOwner>;
  /** `domain` as `owner`'s organisation's connection shows it. */
  shown: (owner: SignedUpOwner, domain: string) => Promise<DomainShown>;
  verify: (owner: SignedUpOwner, domain: string) => request.Test;
  /** Publishes the organisation's record for `domain` and verifies it (200 expected). */
  prove: (owner: SignedUpOwner, domain: string) => Promise<void>;
}

/**
 * The set-up the single sign-on domain e2e suites share (proofs by DNS, their re-checks), called
 * inside a `describe`: an SMTP sink, a DNS server, an OpenID provider with `SSO_CLIENT`, the
 * service using all three with `SSO_DASHBOARD` (plus `env`); at the end the work done after
 * answers settled and everything stopped.
 */
export function ssoDomainSuite(env: Record<string, string> = {}): SsoDomainSuite {
  const suite = {
    server: () => suite.t.app.getHttpServer(),
    http: () => request(suite.t.app.getHttpServer()),
    db: () => suite.t.app.get(DataSource),
    newDomain: (name = 'acme') => `${name}-${randomBytes(4).toString('hex')}.test`,
    as: (owner, r) => r.set('cookie', owner.cookie).set('x-organisation-id', owner.organisationId),
    managerRoleOf: async (owner) => {
      const roles = await suite.as(owner, suite.http().get('/api/roles'));
      const role = (roles.body.roles as { id: string; name: string }[]).find(
        (r) => r.name === 'Manager',
      );
      if (role === undefined) throw new Error('no Manager role');
      return role.id;
    },
    claim: async (domains, organisationName) => {
      const owner = await signUpOwner(suite.server(), { organisationName });
      const put = await suite.as(owner, suite.http().put('/api/organisation/sso')).send({
        issuer: suite.op.issuer,
        clientId: SSO_CLIENT.client_id,
        clientSecret: SSO_CLIENT.client_secret,
        allowedDomains: domains,
        defaultRoleId: await suite.managerRoleOf(owner),
      });
      expect(put.status).toBe(200);
      return owner;
    },
    shown: async (owner, domain) => {
      const res = await suite.as(owner, suite.http().get('/api/organisation/sso'));
      const found = (res.body.connection.domains as DomainShown[]).find((d) => d.domain === domain);
      if (found === undefined) throw new Error(`${domain} is not shown`);
      return found;
    },
    verify: (owner, domain) =>
      suite.as(owner, suite.http().post('/api/organisation/sso/domains/verify')).send({ domain }),
    prove: async (owner, domain) => {
      const record = await suite.shown(owner, domain);
      suite.dns.publish(record.recordName, [record.recordValue]);
      expect((await suite.verify(owner, domain)).status).toBe(200);
    },
  } as SsoDomainSuite;
  beforeAll(async () => {
    suite.sink = new SmtpSink();
    await suite.sink.start();
    suite.dns = await startDnsServer();
    suite.op = await startOidcProvider([{ ...SSO_CLIENT, redirect_uris: [SSO_REDIRECT] }]);
    suite.t = await startTestApp({
      env: {
        DASHBOARD_URL: SSO_DASHBOARD,
        SSO_DNS_SERVERS: suite.dns.address,
        SMTP_URL: suite.sink.url,
        MAIL_FROM: 'Interlock <accounts@interlock.test>',
        ...env,
      },
    });
  });
  afterAll(async () => {
    await suite.t?.app.get(AfterAnswer).settled();
    await suite.t?.close();
    await suite.op?.stop();
    await suite.dns?.stop();
    await suite.sink?.stop();
  });
  return suite;
}
