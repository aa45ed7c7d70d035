import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { DataSource } from 'typeorm';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import { LOGGER } from '../logging/logger.module';
import { clientAddressKey } from './client-address-key.util';
import { postgresLimiters } from './postgres-limiter.util';
import { rateLimited } from './rate-limited.error';

/**
 * Sign-in and sign-up throttling (SPEC §8b), shared by every instance through Postgres with
 * rate-limiter-flexible's store: one atomic upsert per attempt, so the counts are exact across
 * instances. Keys are SHA-256 digests of the account (the normalised email, whether or not it
 * exists) and of the client address (IPv6 by /64), so a 429 says nothing about an account.
 * Sign-in failures count per account from one address, per address, and — slower, the backstop
 * against one account attacked from many addresses — per account (OWASP's advice: a throttle
 * keyed by the account alone would let anyone lock its owner out). The backstop leaves out the
 * addresses the account is known at — where a sign-in or a password reset of it succeeded
 * lately — so a guess spread over many addresses spends it for strangers' addresses only and
 * never refuses the owner where they signed in before (SPEC §8b).
 *
 * An attempt takes its point before the password is checked (concurrent attempts cannot slip
 * past the limit) and gives it back when it succeeds, so the limits count failures (sign-in)
 * or attempts (sign-up). A store that fails lets the attempt through, and says so in the log:
 * a broken limiter never locks everybody out.
 */
@Injectable()
export class AuthAttemptLimiter {
  private readonly signInAccount: RateLimiterPostgres | undefined;
  private readonly signInAddress: RateLimiterPostgres | undefined;
  private readonly signInBackstop: RateLimiterPostgres | undefined;
  private readonly knownAddresses: RateLimiterPostgres | undefined;
  private readonly backstopNotices: RateLimiterPostgres | undefined;
  private backstopSpentListener: BackstopSpentListener | undefined;
  private readonly signUpAccount: RateLimiterPostgres | undefined;
  private readonly signUpAddress: RateLimiterPostgres | undefined;
  private readonly resetAddress: RateLimiterPostgres | undefined;
  private readonly resetAccount: RateLimiterPostgres | undefined;
  private readonly verificationEmails: RateLimiterPostgres | undefined;
  private readonly ssoStartAddress: RateLimiterPostgres | undefined;
  private readonly ssoDomainVerifyOrganisation: RateLimiterPostgres | undefined;

  constructor(
    dataSource: DataSource,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    const limiter = postgresLimiters(dataSource);
    const { signIn, signUp, passwordReset, emailVerification, ssoStart, ssoDomainVerify } =
      config.rateLimits;
    // Per account from one address: a stranger's failures elsewhere never refuse the owner.
    this.signInAccount = limiter(
      'sign_in_account_address',
      signIn.accountFailures,
      signIn.windowSeconds,
    );
    this.signInAddress = limiter('sign_in_address', signIn.addressFailures, signIn.windowSeconds);
    this.signInBackstop = limiter(
      'sign_in_account',
      signIn.accountBackstopFailures,
      signIn.accountBackstopWindowSeconds,
    );
    // A row per account and address, present while the address is known (one point, no limit).
    this.knownAddresses =
      signIn.knownAddressSeconds === 0
        ? undefined
        : limiter('sign_in_known_address', 1, signIn.knownAddressSeconds);
    // One notice per account per backstop window: its owner is told once, not at every refusal.
    this.backstopNotices =
      this.signInBackstop === undefined
        ? undefined
        : limiter('sign_in_backstop_notice', 1, signIn.accountBackstopWindowSeconds);
    this.signUpAccount = limiter('sign_up_account', signUp.accountAttempts, signUp.windowSeconds);
    this.signUpAddress = limiter('sign_up_address', signUp.addressAttempts, signUp.windowSeconds);
    this.resetAddress = limiter(
      'password_reset_address',
      passwordReset.addressRequests,
      passwordReset.windowSeconds,
    );
    this.resetAccount = limiter(
      'password_reset_account',
      passwordReset.accountEmails,
      passwordReset.windowSeconds,
    );
    this.verificationEmails = limiter(
      'email_verification_account',
      emailVerification.emails,
      emailVerification.windowSeconds,
    );
    this.ssoStartAddress = limiter(
      'sso_start_address',
      ssoStart.addressRequests,
      ssoStart.windowSeconds,
    );
    this.ssoDomainVerifyOrganisation = limiter(
      'sso_domain_verify_organisation',
      ssoDomainVerify.organisationRequests,
      ssoDomainVerify.windowSeconds,
    );
  }

  /**
   * Takes a sign-in attempt's point for the account and the address (and, unless the account is
   * known at the address, the account's backstop); 429 when one is spent. Returns the release to
   * call when the attempt succeeds (a success is not a failure).
   */
  async beginSignIn(
    email: string,
    address: string | null,
    password: PasswordGeneration,
  ): Promise<() => Promise<void>> {
    const known = await this.knownAt(email, address, password);
    const backstop = known ? undefined : this.signInBackstop;
    const attempt = await this.consumeAll([
      [this.signInAccount, accountAtAddress(email, address)],
      [this.signInAddress, addressDigest(address)],
      [backstop, digest(email)],
    ]);
    if (attempt.refusedBy.length === 0) return attempt.release;
    await attempt.release();
    if (backstop !== undefined && attempt.refusedBy.includes(backstop))
      await this.backstopRefused(email, address, attempt.refusedFor);
    throw rateLimited(attempt.refusedFor);
  }

  /**
   * `listener` is told when an account's backstop refuses a sign-in, at most once per account per
   * backstop window (SPEC §8b): it emails the owner, after the answer. One listener.
   */
  whenBackstopSpent(listener: BackstopSpentListener): void {
    this.backstopSpentListener = listener;
  }

  /**
   * The account's owner proved themselves from this address — a sign-in succeeded, or an emailed
   * password reset link was used — so the address is known to the account for
   * `RATE_LIMIT_SIGN_IN_KNOWN_ADDRESS_DAYS` from now (each success starts the time again) — for
   * this password: a new one (reset, change, a hash upgraded) forgets every address known before.
   */
  async addressProven(
    email: string,
    address: string | null,
    password: PasswordGeneration,
  ): Promise<void> {
    if (this.knownAddresses === undefined || address === null) return;
    try {
      const known = this.knownAddresses;
      await known.set(knownAddressKey(email, address, password), 1, known.duration);
    } catch (error) {
      this.logger.warn({ err: error }, 'rate limiter unavailable: address not remembered');
    }
  }

  /** Counts a sign-up attempt for the account and the address; 429 when either is spent. */
  async signUpAttempt(email: string, address: string | null): Promise<void> {
    await this.take([
      [this.signUpAccount, digest(email)],
      [this.signUpAddress, addressDigest(address)],
    ]);
  }

  /** Counts a password reset request from a client address; 429 when the address has spent its own. */
  async passwordResetRequest(address: string | null): Promise<void> {
    await this.take([[this.resetAddress, addressDigest(address)]]);
  }

  /**
   * Counts a single sign-on start from a client address; 429 when the address has spent its own.
   * Keyed by the address only: the email is the caller's to choose, so a limit keyed by it would
   * let a stranger stop its owner's sign-ins.
   */
  async ssoStart(address: string | null): Promise<void> {
    await this.take([[this.ssoStartAddress, addressDigest(address)]]);
  }

  /**
   * Counts an organisation's domain proof that asks DNS (SPEC §8b); 429 when the organisation has
   * spent its own. Keyed by the organisation: each of its members with the permission may verify,
   * and the resolver is asked the same however many of them do.
   */
  async ssoDomainVerify(organisationId: string): Promise<void> {
    await this.take([[this.ssoDomainVerifyOrganisation, organisationId]]);
  }

  /** Counts a verification email a signed-in person asks for; 429 when they have spent their own. */
  async verificationEmail(userId: string): Promise<void> {
    await this.take([[this.verificationEmails, digest(userId)]]);
  }

  /**
   * Whether one more password reset email may go to this account now. Never a 429: the request
   * already answered 202 (so nobody learns whether the account exists), and a stranger spending
   * an account's emails must not make the owner's own request fail — it only sends nothing more.
   */
  async passwordResetEmail(email: string): Promise<boolean> {
    if (this.resetAccount === undefined) return true;
    try {
      await this.resetAccount.consume(digest(email));
      return true;
    } catch (outcome) {
      if (outcome instanceof RateLimiterRes) return false;
      this.logger.warn({ err: outcome }, 'rate limiter unavailable: attempt let through');
      return true;
    }
  }

  /** Whether the account is known at the address; not when that cannot be read (the backstop counts). */
  private async knownAt(
    email: string,
    address: string | null,
    password: PasswordGeneration,
  ): Promise<boolean> {
    if (this.knownAddresses === undefined || address === null) return false;
    try {
      return (await this.knownAddresses.get(knownAddressKey(email, address, password))) !== null;
    } catch (error) {
      this.logger.warn({ err: error }, 'rate limiter unavailable: address taken as unknown');
      return false;
    }
  }

  /**
   * The backstop refused a sign-in of `email`: its listener is told if this is the window's first
   * notice for the account (the notice's point is taken whether or not the account exists, so the
   * refusal costs the same either way; the listener looks the account up after the answer).
   */
  private async backstopRefused(
    email: string,
    address: string | null,
    retryAfterMs: number,
  ): Promise<void> {
    const listener = this.backstopSpentListener;
    if (listener === undefined || this.backstopNotices === undefined) return;
    try {
      await this.backstopNotices.consume(digest(email));
    } catch (outcome) {
      if (!(outcome instanceof RateLimiterRes))
        this.logger.warn({ err: outcome }, 'rate limiter unavailable: backstop notice not sent');
      return;
    }
    listener({ email, address, retryAfterMs });
  }

  private async take(
    keys: [RateLimiterPostgres | undefined, string | undefined][],
  ): Promise<() => Promise<void>> {
    const attempt = await this.consumeAll(keys);
    if (attempt.refusedBy.length > 0) {
      // Refused attempts do not count against the other keys.
      await attempt.release();
      throw rateLimited(attempt.refusedFor);
    }
    return attempt.release;
  }

  /** Takes a point of each key: the release of those taken, and which limiters refused (for how long). */
  private async consumeAll(keys: [RateLimiterPostgres | undefined, string | undefined][]): Promise<{
    release: () => Promise<void>;
    refusedBy: RateLimiterPostgres[];
    refusedFor: number;
  }> {
    const taken: [RateLimiterPostgres, string][] = [];
    const refusedBy: RateLimiterPostgres[] = [];
    let refusedFor = 0;
    for (const [limiter, key] of keys) {
      if (limiter === undefined || key === undefined) continue;
      try {
        await limiter.consume(key);
        taken.push([limiter, key]);
      } catch (outcome) {
        if (outcome instanceof RateLimiterRes) {
          refusedBy.push(limiter);
          refusedFor = Math.max(refusedFor, outcome.msBeforeNext);
          continue;
        }
        this.logger.warn({ err: outcome }, 'rate limiter unavailable: attempt let through');
      }
    }
    const release = async () => {
      await Promise.all(
        taken.map(([limiter, key]) =>
          limiter
            .reward(key)
            .catch((error: unknown) =>
              this.logger.warn(
                { err: error },
                'rate limiter unavailable: could not give a point back',
              ),
            ),
        ),
      );
    };
    return { release, refusedBy, refusedFor };
  }
}

/** An account's sign-in backstop refused a sign-in (SPEC §8b): whom to tell, and until when. */
export interface BackstopSpent {
  /** The normalised address signed in with: an account's, or nobody's. */
  email: string;
  /** The client address the refused attempt came from. */
  address: string | null;
  /** How long the backstop goes on refusing addresses the account is not known at. */
  retryAfterMs: number;
}

export type BackstopSpentListener = (spent: BackstopSpent) => void;

function digest(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** An account at a client address (IPv6 by /64), digested: its failures' key, and its known-address row's. */
function accountAtAddress(email: string, address: string | null): string {
  return digest(`${email}\n${address === null ? 'unknown' : clientAddressKey(address)}`);
}

/**
 * The account's password as the known addresses are keyed by: its stored hash (salted, so a new
 * password — reset, change or an upgraded hash — is another key, and the addresses known before are
 * forgotten); none for an account without a password or no account.
 */
export type PasswordGeneration = string | null | undefined;

/** An account at an address, known for one password: the known-address row's key, digested. */
function knownAddressKey(email: string, address: string, password: PasswordGeneration): string {
  return digest(`${accountAtAddress(email, address)}\n${password ?? ''}`);
}

/** A client address as the throttles count it (IPv6 by /64), digested; none without an address. */
function addressDigest(address: string | null): string | undefined {
  return address === null ? undefined : digest(clientAddressKey(address));
}
