import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
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
import { decoyPasswordHash, hashPassword, needsRehash, verifyPassword } from './password.util';
import { TwoFactorService } from '../users/two-factor.service';
import { SignInSessionService } from './sign-in-session.service';
import type { SignInSessionResponse } from './dto/sign-in-session.response';
import type { SignUpCommand } from './sign-up.command';
import { DomainError } from '@interlock/domain';

/** A new sign-in session's cookie token, and the response body that goes with it. */
export interface SignedIn<Body> {
  token: string;
  expiresAt: Date;
  body: Body;
}

@Injectable()
export class AuthService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly signIns: SignInSessionService,
    private readonly setup: OrganisationSetupService,
    private readonly organisations: OrganisationsRepository,
    private readonly limiter: AuthAttemptLimiter,
    private readonly verification: EmailVerificationService,
    private readonly twoFactor: TwoFactorService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    // Made now, not at the first unknown email's sign-in (which would then cost two hashes).
    void decoyPasswordHash(config.accounts.passwordScryptLogN);
  }

  /**
   * A new user, a new organisation with them as its Owner, and a sign-in session: one
   * transaction; then a verification link to the address (SPEC §8f), after the answer.
   */
  async signUp(input: SignUpCommand): Promise<SignedIn<OrganisationJoinedResponse>> {
    const { ip } = input;
    if (this.config.signup === 'closed') {
      throw new DomainError(
        'SIGNUP_CLOSED',
        'Sign-up is closed on this server; ask an administrator for an invitation.',
      );
    }
    await this.limiter.signUpAttempt(normaliseEmail(input.email), ip);
    const passwordHash = await hashPassword(
      input.password,
      this.config.accounts.passwordScryptLogN,
    );
    const signedUp = await this.dataSource.transaction(async (tx) => {
      const userId = await insertUser(tx, { email: input.email, name: input.name, passwordHash });
      const { organisationId } = await this.setup.create(tx, {
        organisationName: input.organisationName,
        owner: { userId, name: input.name },
        ipAddress: ip,
      });
      const session = await this.signIns.create(tx, userId);
      return { ...session, body: await describeJoined(tx, userId, organisationId) };
    });
    this.verification.newAccount(signedUp.body.user);
    return signedUp;
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
    const succeeded = await this.limiter.beginSignIn(normaliseEmail(email), ip);
    const user = await findUserByEmail(this.dataSource.manager, email);
    const logN = this.config.accounts.passwordScryptLogN;
    const ok = await verifyPassword(
      password,
      user?.password_hash ?? (await decoyPasswordHash(logN)),
    );
    if (user === undefined || !ok)
      throw new DomainError('INVALID_CREDENTIALS', 'Invalid email or password.');
    // The second step (SPEC §8f): a wrong code counts as a failed sign-in; asking for one does not.
    const session = await this.dataSource
      .transaction(async (tx) => {
        await this.twoFactor.signInStep(tx, { id: user.id, name: user.name }, code, ip);
        return this.signIns.create(tx, user.id);
      })
      .catch(async (error: unknown) => {
        if (error instanceof DomainError && error.code === 'TWO_FACTOR_REQUIRED') await succeeded();
        throw error;
      });
    await succeeded();
    if (needsRehash(user.password_hash, logN)) {
      // Only if the hash is still the one verified: a password changed meanwhile stays changed.
      await replacePasswordHash(
        this.dataSource.manager,
        user.id,
        await hashPassword(password, logN),
        user.password_hash,
      );
    }
    return { ...session, body: await describeAccount(this.dataSource.manager, user.id) };
  }

  /** The member acting for this request's organisation: who, which organisation, which role and permissions. */
  async describeSignInSession(
    organisationId: string,
    member: SignInSessionResponse['member'],
    permissions: Permission[],
  ): Promise<SignInSessionResponse> {
    const organisation = await this.organisations.read(this.dataSource, organisationId);
    if (organisation === undefined) throw DomainError.of('NOT_FOUND');
    return {
      member,
      organisation: { id: organisationId, name: organisation.name, plan: organisation.plan },
      permissions,
    };
  }

  async account(userId: string): Promise<AccountResponse> {
    return describeAccount(this.dataSource.manager, userId);
  }
}
