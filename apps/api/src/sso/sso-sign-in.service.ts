import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { writeAuditEntry } from '@interlock/audit';
import { DomainError } from '@interlock/domain';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import type { Queryable } from '../database/query-rows.util';
import { admitMember } from '../members/member-admission.util';
import { isCurrentMemberByEmail } from '../members/memberships.repository';
import { InvitationsRepository } from '../invitations/invitations.repository';
import { admitByInvitation } from '../invitations/invitation-admission.util';
import { RolesRepository } from '../roles/roles.repository';
import { describeJoined } from '../users/account.util';
import type { OrganisationJoinedResponse } from '../users/dto/account.response';
import { recordEmailProven } from '../users/email-verification.service';
import {
  findUser,
  findUserByEmail,
  findUserWithPassword,
  insertUser,
  normaliseEmail,
} from '../users/users.repository';
import { isPasswordHash } from '../auth/password.util';
import type { SignedIn } from '../auth/auth.service';
import { SignInSessionService } from '../auth/sign-in-session.service';
import { oidc, reasonOf, SsoClients } from './sso-clients';
import { SSO_FLOW_MINUTES, type SsoFlow, SsoFlowSeal } from './sso-flow.util';
import { SsoRepository, type SsoConnectionRow } from './sso.repository';
import { SsoSecrets } from './sso-secrets';
import { AuthAttemptLimiter } from '../rate-limits/auth-attempt-limiter.service';
import { Mailer } from '../mail/mailer';
import { renderAccountMail } from '../users/account-mail';
import { AfterAnswer } from '../users/after-answer';
import { LOGGER } from '../logging/logger.module';
import type { Logger } from 'pino';

/**
 * A finished single sign-on: the answer, and the new sign-in session — none when the browser's
 * password session of the same account is kept (SPEC §8f).
 */
export interface SsoFinished {
  body: OrganisationJoinedResponse;
  session: Omit<SignedIn<unknown>, 'body'> | undefined;
}

/** The password hash of an account made by single sign-on: no password matches it (a reset sets one). */
export const NO_PASSWORD = 'none:single-sign-on';

const failed = (message: string) => new DomainError('SSO_SIGN_IN_FAILED', message);

export const SSO_MESSAGES = {
  flow: `This single sign-on was not started in this browser, or took longer than ${SSO_FLOW_MINUTES} minutes: start again.`,
  emailUnverified:
    'Your identity provider did not confirm your email address (email_verified): ask your administrator.',
  roleGone:
    'Single sign-on gives new members a role that no longer exists: ask your administrator to choose another.',
  providerRefused: (error: string) =>
    `Your identity provider did not sign you in (${error}): start again, or ask your administrator.`,
  checks: (what: string) =>
    `Your identity provider's answer did not pass the checks (${what}): start again.`,
  domain: (email: string) =>
    `${email} is not at a domain this organisation signs in with single sign-on.`,
  domainUnverified: (email: string, domain: string) =>
    `${email} is at ${domain}, which this organisation has not verified for single sign-on yet: ask your administrator.`,
  linkedElsewhere:
    'This single sign-on identity is linked to an account whose address this organisation has not verified for single sign-on: ask your administrator.',
  linkNeedsPassword: (email: string) =>
    `An account with ${email} exists already: to link it to single sign-on, sign in with its password in this browser first, then sign in with single sign-on again.`,
  notConfigured: (domain: string) =>
    `No organisation signs in addresses at ${domain} with single sign-on: sign in with your password.`,
} as const;

/** The domain of an address (lower-case), or undefined when it has none. */
export function domainOf(email: string): string | undefined {
  const at = email.lastIndexOf('@');
  return at < 1 || at === email.length - 1 ? undefined : email.slice(at + 1).toLowerCase();
}

/**
 * Signing in with an organisation's OpenID provider (SPEC §8f): authorization code flow with
 * PKCE, `state` and `nonce`, the ID token checked by `openid-client` (signature, issuer,
 * audience, expiry, nonce). The first sign-in of a person links the provider's subject to the
 * account with that (provider-verified) address, or makes one; a person who is not a member
 * joins with the connection's role (just-in-time). The session acts for that organisation only.
 */
@Injectable()
export class SsoSignInService {
  private readonly seal: SsoFlowSeal;

  constructor(
    private readonly dataSource: DataSource,
    private readonly sso: SsoRepository,
    private readonly roles: RolesRepository,
    private readonly invitations: InvitationsRepository,
    private readonly signIns: SignInSessionService,
    private readonly clients: SsoClients,
    private readonly secrets: SsoSecrets,
    private readonly limiter: AuthAttemptLimiter,
    private readonly mailer: Mailer,
    private readonly afterAnswer: AfterAnswer,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.seal = new SsoFlowSeal(config.apiKeyPepper);
  }

  /** Where the provider sends the browser back: the dashboard's page, which finishes the sign-in. */
  redirectUri(): string {
    return `${this.config.dashboardUrl}/sso/callback`;
  }

  /**
   * The provider's sign-in page for this address's organisation, and the cookie that finishes it.
   * Throttled per client address before anything is looked up (SPEC §8b), so a 429 says nothing
   * about the domain.
   */
  async start(
    email: string,
    ip: string | null,
  ): Promise<{ authorizationUrl: string; flow: string; expiresAt: Date }> {
    await this.limiter.ssoStart(ip);
    const address = normaliseEmail(email);
    const domain = domainOf(address) ?? '';
    const organisationId = await this.sso.organisationOfDomain(this.dataSource, domain);
    const connection =
      organisationId === undefined
        ? undefined
        : await this.sso.read(this.dataSource, organisationId);
    if (connection === undefined)
      throw new DomainError('SSO_NOT_CONFIGURED', SSO_MESSAGES.notConfigured(domain));
    const config = await this.configuration(connection);
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const flow: SsoFlow = {
      organisationId: connection.organisation_id,
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      codeVerifier,
      expiresAt: Date.now() + SSO_FLOW_MINUTES * 60_000,
    };
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.redirectUri(),
      scope: 'openid email profile',
      response_type: 'code',
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state: flow.state,
      nonce: flow.nonce,
      login_hint: address,
    });
    return {
      authorizationUrl: url.href,
      flow: this.seal.seal(flow),
      expiresAt: new Date(flow.expiresAt),
    };
  }

  /**
   * Finishes a sign-in with the query string the provider sent the browser back with, and the
   * sealed flow from the cookie of the browser that started it.
   */
  async finish(
    sealedFlow: string | undefined,
    callbackQuery: string,
    ip: string | null,
    passwordUserId: string | null = null,
  ): Promise<SsoFinished> {
    const flow = this.seal.open(sealedFlow);
    if (flow === undefined) throw failed(SSO_MESSAGES.flow);
    const connection = await this.sso.read(this.dataSource, flow.organisationId);
    if (connection === undefined) throw failed(SSO_MESSAGES.flow);
    const query = new URLSearchParams(callbackQuery.replace(/^\?/, ''));
    const error = query.get('error');
    if (error !== null)
      throw failed(
        SSO_MESSAGES.providerRefused(error.replace(/[^A-Za-z0-9_.-]/g, '').slice(0, 64)),
      );
    const config = await this.configuration(connection);
    const current = new URL(this.redirectUri());
    current.search = query.toString();
    let claims: oidc.IDToken | undefined;
    try {
      const tokens = await oidc.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: flow.codeVerifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims();
    } catch (thrown) {
      throw failed(SSO_MESSAGES.checks(reasonOf(thrown)));
    }
    if (claims === undefined) throw failed(SSO_MESSAGES.checks('no ID token'));
    const email = typeof claims.email === 'string' ? normaliseEmail(claims.email) : '';
    if (claims.email_verified !== true) throw failed(SSO_MESSAGES.emailUnverified);
    const domain = domainOf(email);
    if (domain === undefined || !connection.allowed_domains.includes(domain))
      throw failed(SSO_MESSAGES.domain(email || '(no email)'));
    const name = nameFrom(claims, email);
    const signedIn = await this.dataSource.transaction(async (tx) => {
      // Sign-ins of one address take turns: two first sign-ins at once make one account, and the
      // second finds it linked (SPEC §8f).
      await this.sso.takeTurnForAddress(tx, email);
      // The provider first, then its domain: the order every settings change locks them in.
      await this.sso.holdConnection(tx, connection.organisation_id);
      // Only a domain this organisation proved by DNS signs anyone in: no link, no provisioning.
      // Checked in the transaction and held (FOR SHARE), so the domain cannot be removed between
      // the check and the link: its removal waits, then forgets the link.
      if ((await this.sso.holdDomain(tx, domain)) !== connection.organisation_id)
        throw failed(SSO_MESSAGES.domainUnverified(email, domain));
      const person = await this.personOf(tx, connection, claims, email, name, ip, passwordUserId);
      await this.admit(tx, connection, { ...person, email, issuer: claims.iss, ip });
      // The provider vouched for the address of the account it made (not for an existing one's):
      // audited once the person is a member, so the organisation's log shows it.
      if (person.made) await recordEmailProven(tx, { ...person, email }, 'single_sign_on', ip);
      // It works: the organisation may now require it (SPEC §8f).
      await this.sso.markVerified(
        tx,
        connection.organisation_id,
        connection.issuer,
        connection.client_id,
      );
      // The browser's password session of this very account stays (linking from the dashboard):
      // a single sign-on session would take its place and act for this organisation alone.
      const session =
        person.id === passwordUserId
          ? undefined
          : await this.signIns.create(tx, person.id, connection.organisation_id);
      const joined = await describeJoined(tx, person.id, connection.organisation_id);
      // A new session acts for this organisation alone: the answer lists no other.
      return {
        signedIn: { session, body: { ...joined, organisations: [joined.organisation] } },
        linked: person.linked,
        userId: person.id,
      };
    });
    await this.rememberAddress(signedIn.userId, ip);
    if (signedIn.linked !== undefined) {
      const linked = signedIn.linked;
      this.afterAnswer.run('single sign-on linked email', async () => {
        await this.mailer.send(
          renderAccountMail('ssoLinked', email, {
            name: linked.name,
            email,
            organisationName: signedIn.signedIn.body.organisation.name,
            issuer: connection.issuer,
            at: new Date().toISOString().slice(0, 16).replace('T', ' '),
            address: ip,
            resetUrl: `${this.config.dashboardUrl}/reset-password`,
          }),
        );
      });
    }
    return signedIn.signedIn;
  }

  /**
   * The provider signed the account's owner in from `ip`: like a password sign-in there, it makes
   * the address known to the account for its current password, so the sign-in backstop does not
   * refuse a password sign-in from it (SPEC §8b, §8f). An account without a password has nothing
   * the backstop guards: nothing is remembered (a password a reset sets later starts afresh).
   */
  private async rememberAddress(userId: string, ip: string | null): Promise<void> {
    // The sign-in has committed: a failure here must not turn it into a 500 without its cookie.
    try {
      const user = await findUserWithPassword(this.dataSource.manager, userId);
      if (user === undefined || !isPasswordHash(user.password_hash)) return;
      await this.limiter.addressProven(normaliseEmail(user.email), ip, user.password_hash);
    } catch (error) {
      this.logger.warn({ err: error }, 'single sign-on: address not remembered');
    }
  }

  /**
   * The user the provider's subject is, linking or making one at the first sign-in. An existing
   * account is linked only when this browser also holds a password sign-in session of it
   * (`passwordUserId`): the person proved it is theirs (SPEC §8f); `linked` then says whom to
   * tell by email.
   */
  private async personOf(
    tx: Queryable,
    connection: SsoConnectionRow,
    claims: oidc.IDToken,
    email: string,
    name: string,
    ip: string | null,
    passwordUserId: string | null,
  ): Promise<{ id: string; name: string; made?: true; linked?: { name: string } }> {
    const organisationId = connection.organisation_id;
    const linked = await this.sso.userOfIdentity(tx, organisationId, claims.iss, claims.sub);
    if (linked !== undefined) {
      const user = await findUser(tx, linked);
      if (user !== undefined) {
        // A link signs in only an account at a domain this organisation holds proven now (a link
        // made before domains were proven, or of an account that moved, proves nothing).
        if (
          user.email !== email &&
          (await this.sso.organisationOfDomain(tx, domainOf(user.email) ?? '')) !== organisationId
        )
          throw failed(SSO_MESSAGES.linkedElsewhere);
        return { id: user.id, name: user.name };
      }
    }
    const existing = await findUserByEmail(tx, email);
    if (existing !== undefined && existing.id !== passwordUserId)
      throw failed(SSO_MESSAGES.linkNeedsPassword(email));
    // A password sign-up of the address that committed meanwhile made an account that is not
    // this one: refused like an existing account (the address's sign-ins take turns, sign-ups don't).
    const userId =
      existing?.id ??
      (await insertUser(tx, { email, name, passwordHash: NO_PASSWORD }, () =>
        failed(SSO_MESSAGES.linkNeedsPassword(email)),
      ));
    await this.sso.link(tx, organisationId, claims.iss, claims.sub, userId);
    if (existing !== undefined) {
      await writeAuditEntry(tx, {
        organisationId,
        action: 'member.sso_linked',
        actor: { type: 'member', id: userId, name: existing.name },
        target: { type: 'user', id: userId, name: existing.name },
        metadata: { email, issuer: claims.iss },
        ipAddress: ip,
      });
    }
    return existing === undefined
      ? { id: userId, name, made: true }
      : { id: userId, name: existing.name, linked: { name: existing.name } };
  }

  /**
   * Just-in-time membership: a person who is not a member joins with the role of their pending
   * invitation (used up, `member.joined`), else with the connection's role (`member.provisioned`).
   */
  private async admit(
    tx: Queryable,
    connection: SsoConnectionRow,
    who: { id: string; name: string; email: string; issuer: string; ip: string | null },
  ): Promise<void> {
    const organisationId = connection.organisation_id;
    const person = { userId: who.id, name: who.name, ip: who.ip };
    const invitation = await this.invitations.lockPendingByEmail(tx, organisationId, who.email);
    if (invitation !== undefined) {
      await admitByInvitation(tx, this.invitations, invitation, person);
      return;
    }
    const role = await this.roles.lock(
      tx,
      organisationId,
      connection.default_role_id,
      'FOR KEY SHARE',
    );
    if (role === undefined) {
      if (await isCurrentMemberByEmail(tx, organisationId, who.email)) return;
      throw failed(SSO_MESSAGES.roleGone);
    }
    await admitMember(tx, organisationId, person, role.id, {
      action: 'member.provisioned',
      metadata: { email: who.email, roleId: role.id, role: role.name, issuer: who.issuer },
    });
  }

  private async configuration(connection: SsoConnectionRow): Promise<oidc.Configuration> {
    const secret = this.secrets.open(connection);
    try {
      return await this.clients.configuration(connection.issuer, connection.client_id, secret);
    } catch (thrown) {
      throw failed(SSO_MESSAGES.checks(`discovery: ${reasonOf(thrown)}`));
    }
  }
}

/** The person's name from the ID token: `name`, else given and family names, else the address's local part. */
function nameFrom(claims: oidc.IDToken, email: string): string {
  const given = typeof claims.given_name === 'string' ? claims.given_name : '';
  const family = typeof claims.family_name === 'string' ? claims.family_name : '';
  const raw =
    (typeof claims.name === 'string' && claims.name.trim()) ||
    `${given} ${family}`.trim() ||
    email.slice(0, email.indexOf('@'));
  return raw.trim().slice(0, 100) || email;
}
