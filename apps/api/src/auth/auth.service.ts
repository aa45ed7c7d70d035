import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Queryable } from '../database/query-rows.util';
import type { Permission } from '@interlock/domain';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import { AuthAttemptLimiter } from '../rate-limits/auth-attempt-limiter.service';
import { OrganisationSetupService } from '../organisation/organisation-setup.service';
import { OrganisationsRepository } from '../organisation/organisations.repository';
import { describeAccount, describeJoined } from '../users/account.util';
import { EmailVerificationService } from '../users/email-verification.service';
import type { AccountResponse, OrganisationJoinedResponse } from '../users/dto/account.response';
import {
  findUserByEmail,
  insertUser,
  normaliseEmail,
  replacePasswordHash,
} from '../users/users.repository';
import { decoyPasswordHash, hashPassword, needsRehash, passwordMatches } from './password.util';
import { TwoFactorService } from '../users/two-factor.service';
import { admitPasswordSignIn, refusedToPassword } from '../sso/sso-requirement.util';
import { SignInSessionService } from './sign-in-session.service';
import type { SignInSessionResponse } from './dto/sign-in-session.response';
import type { SignUpCommand } from './sign-up.command';
import { DomainError } from '@interlock/domain';
import { AfterAnswer } from '../users/after-answer';
import { renderAccountMail } from '../users/account-mail';
import { recordEmailProven } from '../users/email-verification.service';
import { Mailer } from '../mail/mailer';
import { SIGN_UP_LINK_HOURS, SignUpLinkSeal, type PendingSignUp } from './sign-up-link.util';
import type { SignUpPendingResponse } from './dto/sign-up-pending.response';

export const SIGN_UP_CLOSED =
  'Sign-up is closed on this server; ask an administrator for an invitation.';
export const SIGN_UP_LINK_INVALID =
  'This sign-up link is not valid: it expired (links work for 24 hours), or it is not one we sent. Sign up again.';
export const SIGN_UP_LINK_USED =
  'This sign-up link was already used, or the address has an account now: sign in.';

/**
 * What a sign-up came to: signed in at once (`SIGN_UP_CONFIRMATION=instant`), or a link emailed
 * to the address (`link`: the answer is the same whether or not the address has an account).
 */
export type SignUpOutcome =
  | ({ kind: 'signed_in' } & SignedIn<OrganisationJoinedResponse>)
  | { kind: 'link_sent'; body: SignUpPendingResponse };

/** A new sign-in session's cookie token, and the response body that goes with it. */
export interface SignedIn<Body> {
  token: string;
  expiresAt: Date;
  body: Body;
}

@Injectable()
export class AuthService {
  private readonly links: SignUpLinkSeal;

  constructor(
    private readonly dataSource: DataSource,
    private readonly signIns: SignInSessionService,
    private readonly setup: OrganisationSetupService,
    private readonly organisations: OrganisationsRepository,
    private readonly limiter: AuthAttemptLimiter,
    private readonly verification: EmailVerificationService,
    private readonly twoFactor: TwoFactorService,
    private readonly mailer: Mailer,
    private readonly afterAnswer: AfterAnswer,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.links = new SignUpLinkSeal(config.apiKeyPepper);
    // Made now, not at the first unknown email's sign-in (which would then cost two hashes).
    void decoyPasswordHash(config.accounts.passwordScryptLogN);
  }

  /**
   * Sign-up (SPEC §8b, §8f). With `SIGN_UP_CONFIRMATION=link`, nothing is looked up before
   * the answer: the password is hashed (the same work either way), the answer says a link was
   * emailed, and afterwards the address gets either a link that finishes the sign-up or, when it
   * has an account already, an email saying so — so neither the answer nor its timing says
   * whether the address is taken. With `instant`, the account, its organisation and a sign-in
   * session are made at once, and a taken address answers 409.
   */
  async signUp(input: SignUpCommand): Promise<SignUpOutcome> {
    const { ip } = input;
    if (this.config.signup === 'closed') throw new DomainError('SIGNUP_CLOSED', SIGN_UP_CLOSED);
    const email = normaliseEmail(input.email);
    await this.limiter.signUpAttempt(email, ip);
    const passwordHash = await hashPassword(
      input.password,
      this.config.accounts.passwordScryptLogN,
    );
    if (this.config.accounts.signUpConfirmation === 'link') {
      const pending: PendingSignUp = {
        email,
        name: input.name,
        organisationName: input.organisationName,
        passwordHash,
        expiresAt: Date.now() + SIGN_UP_LINK_HOURS * 3_600_000,
      };
      this.afterAnswer.run('sign-up email', () => this.sendSignUpEmail(pending));
      return { kind: 'link_sent', body: { email } };
    }
    const signedUp = await this.dataSource.transaction((tx) =>
      this.createAccount(tx, { ...input, passwordHash }, ip),
    );
    this.verification.newAccount(signedUp.body.user);
    return { kind: 'signed_in', ...signedUp };
  }

  /**
   * Finishes a sign-up with its emailed link's token: the account (its address verified: the
   * link reached it), its organisation and a sign-in session, in one transaction. 400
   * `INVALID_TOKEN` for an altered, foreign or expired token, or once the address has an
   * account (the link was used, or the address was signed up meanwhile).
   */
  async completeSignUp(
    token: string,
    ip: string | null,
  ): Promise<SignedIn<OrganisationJoinedResponse>> {
    if (this.config.signup === 'closed') throw new DomainError('SIGNUP_CLOSED', SIGN_UP_CLOSED);
    const pending = this.links.open(token);
    if (pending === undefined) throw new DomainError('INVALID_TOKEN', SIGN_UP_LINK_INVALID);
    return this.dataSource.transaction(async (tx) => {
      const signedUp = await this.createAccount(
        tx,
        pending,
        ip,
        () => new DomainError('INVALID_TOKEN', SIGN_UP_LINK_USED),
      );
      const { user } = signedUp.body;
      await recordEmailProven(
        tx,
        { id: user.id, name: user.name, email: user.email },
        'sign_up_link',
        ip,
      );
      return {
        ...signedUp,
        body: await describeJoined(tx, user.id, signedUp.body.organisation.id),
      };
    });
  }

  /** Resolves once the work started after earlier answers (sign-up emails) is done; for tests. */
  async settled(): Promise<void> {
    await this.afterAnswer.settled();
  }

  private async createAccount(
    tx: Queryable,
    input: { email: string; name: string; organisationName: string; passwordHash: string },
    ip: string | null,
    taken?: () => DomainError,
  ): Promise<SignedIn<OrganisationJoinedResponse>> {
    const userId = await insertUser(
      tx,
      { email: input.email, name: input.name, passwordHash: input.passwordHash },
      taken,
    );
    const { organisationId } = await this.setup.create(tx, {
      organisationName: input.organisationName,
      owner: { userId, name: input.name },
      ipAddress: ip,
    });
    const session = await this.signIns.create(tx, userId);
    return { ...session, body: await describeJoined(tx, userId, organisationId) };
  }

  /** After a sign-up's answer: the link that finishes it, or — the address has an account — a note saying so. */
  private async sendSignUpEmail(pending: PendingSignUp): Promise<void> {
    const { dashboardUrl } = this.config;
    const existing = await findUserByEmail(this.dataSource.manager, pending.email);
    if (existing === undefined) {
      await this.mailer.send(
        renderAccountMail('signUpLink', pending.email, {
          name: pending.name,
          email: pending.email,
          organisationName: pending.organisationName,
          url: `${dashboardUrl}/complete-sign-up#${this.links.seal(pending)}`,
        }),
      );
      return;
    }
    await this.mailer.send(
      renderAccountMail('signUpAddressTaken', existing.email, {
        name: existing.name,
        email: existing.email,
        signInUrl: `${dashboardUrl}/sign-in`,
        resetUrl: `${dashboardUrl}/reset-password`,
      }),
    );
  }

  /**
   * Unknown email and wrong password answer alike and take the same time (one scrypt each); so
   * does the throttle (SPEC §8b), which counts failures per email whether or not it exists. A
   * hash made at another cost than today's is replaced by one at today's (SPEC §8f).
   */
  async signIn(
    email: string,
    password: string,
    ip: string | null,
    code?: string,
  ): Promise<SignedIn<AccountResponse>> {
    const user = await findUserByEmail(this.dataSource.manager, email);
    const succeeded = await this.limiter.beginSignIn(
      normaliseEmail(email),
      ip,
      user?.password_hash,
    );
    const logN = this.config.accounts.passwordScryptLogN;
    const ok = await passwordMatches(password, user?.password_hash, logN);
    if (user === undefined || !ok)
      throw new DomainError('INVALID_CREDENTIALS', 'Invalid email or password.');
    // The second step (SPEC §8f): a wrong code counts as a failed sign-in; asking for one does not.
    const session = await this.dataSource
      .transaction(async (tx) => {
        await this.twoFactor.signInStep(tx, { id: user.id, name: user.name }, code, ip);
        // Where single sign-on is required, refused — or an Owner's audited break-glass (SPEC §8f).
        await admitPasswordSignIn(tx, { id: user.id, name: user.name, email: user.email }, ip);
        return this.signIns.create(tx, user.id);
      })
      .catch(async (error: unknown) => {
        // The password was right: neither is a failed sign-in.
        if (
          error instanceof DomainError &&
          (error.code === 'TWO_FACTOR_REQUIRED' || error.code === 'SSO_REQUIRED')
        )
          await succeeded();
        throw error;
      });
    await succeeded();
    let passwordHash = user.password_hash;
    if (needsRehash(user.password_hash, logN)) {
      const rehashed = await hashPassword(password, logN);
      // Only if the hash is still the one verified: a password changed meanwhile stays changed.
      if (await replacePasswordHash(this.dataSource.manager, user.id, rehashed, user.password_hash))
        passwordHash = rehashed;
    }
    // The owner signed in from here: the per-account backstop no longer refuses this address
    // (for this password's hash: after a new password, only where the owner proves it again).
    await this.limiter.addressProven(normaliseEmail(email), ip, passwordHash);
    return { ...session, body: await this.account(user.id, null) };
  }

  /** The member acting for this request's organisation: who, which organisation, which role and permissions. */
  async describeSignInSession(
    organisationId: string,
    member: SignInSessionResponse['member'],
    permissions: Permission[],
    signedInWith: SignInSessionResponse['signedInWith'],
  ): Promise<SignInSessionResponse> {
    const organisation = await this.organisations.read(this.dataSource, organisationId);
    if (organisation === undefined) throw DomainError.of('NOT_FOUND');
    return {
      member,
      organisation: { id: organisationId, name: organisation.name, plan: organisation.plan },
      permissions,
      signedInWith,
    };
  }

  /**
   * The person's account as a sign-in session shows it: one made by single sign-on lists its
   * organisation only; a password one leaves out those that require single sign-on where the
   * person is no Owner (it cannot act for them: SPEC §8f).
   */
  async account(userId: string, ssoOrganisationId: string | null): Promise<AccountResponse> {
    const db = this.dataSource.manager;
    const account = await describeAccount(db, userId);
    const refused = ssoOrganisationId === null ? await refusedToPassword(db, userId) : undefined;
    return {
      ...account,
      organisations: account.organisations.filter((o) =>
        refused === undefined ? o.id === ssoOrganisationId : !refused.has(o.id),
      ),
    };
  }
}
