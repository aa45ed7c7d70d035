import { createHash, randomInt } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DomainError } from '@interlock/domain';
import type { UserCall } from '../auth/caller';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import type { Queryable } from '../database/query-rows.util';
import { WebhookSecretBox } from '../webhooks/webhook-secret.util';
import { auditAccountEvent } from './account-audit';
import { EmailVerificationService } from './email-verification.service';
import type {
  RecoveryCodesResponse,
  TwoFactorSetupResponse,
  TwoFactorStatusResponse,
} from './dto/two-factor.dto';
import { PasswordsService } from './passwords.service';
import { matchTotp, newTotpSecret, otpauthUri } from './totp.util';
import { TwoFactorRepository, type TwoFactorRow } from './two-factor.repository';

export const TWO_FACTOR_ISSUER = 'Interlock';
export const RECOVERY_CODE_COUNT = 10;
/** Letters and digits that cannot be taken for one another (no 0/o, 1/l/i). */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

export const INVALID_SIGN_IN_CODE =
  'The code is not correct: enter the 6-digit code your authenticator app shows now, or an unused recovery code.';
export const INVALID_SETUP_CODE =
  'The code is not correct: enter the 6-digit code your authenticator app shows now for the key you added.';
export const TWO_FACTOR_ALREADY_ON =
  'Two-factor sign-in is already on: turn it off first to set it up again.';
export const TWO_FACTOR_NOT_ON = 'Two-factor sign-in is not on.';
export const NO_SETUP_STARTED =
  'No two-factor set-up is waiting for a code: start the set-up first.';

/** How a second factor was given. */
export type SecondFactor = { via: 'totp' } | { via: 'recovery_code'; left: number };

function recoveryCodeHash(code: string): string {
  return createHash('sha256').update(code.toLowerCase().replace(/[\s-]/g, '')).digest('hex');
}

function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < 10; i++) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/**
 * Two-factor sign-in with an authenticator app (TOTP, RFC 6238) and single-use recovery codes
 * (SPEC §8f). Set-up: the password opens it (a session alone cannot), a new secret is shown once,
 * and a code from the app confirms it — only then does sign-in ask for one, and the recovery codes
 * are shown, once. Turning it off takes the password and a code. The secret is kept sealed
 * (AES-256-GCM, key derived from the server secret, bound to the user); recovery codes as SHA-256.
 */
@Injectable()
export class TwoFactorService {
  private readonly box: WebhookSecretBox;

  constructor(
    private readonly dataSource: DataSource,
    private readonly repository: TwoFactorRepository,
    private readonly passwords: PasswordsService,
    private readonly verification: EmailVerificationService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.box = new WebhookSecretBox(config.apiKeyPepper, 'two-factor-secrets/v1');
  }

  async status(userId: string): Promise<TwoFactorStatusResponse> {
    const row = await this.repository.find(this.dataSource.manager, userId);
    const enabledAt = row?.enabled_at ?? null;
    return {
      enabled: enabledAt !== null,
      enabledAt: enabledAt?.toISOString() ?? null,
      recoveryCodesLeft:
        enabledAt === null
          ? 0
          : await this.repository.recoveryCodesLeft(this.dataSource.manager, userId),
    };
  }

  /**
   * A new secret for the person's app (a set-up not yet confirmed is replaced); 403
   * EMAIL_NOT_VERIFIED first where verification is required and the address is unproven.
   */
  async startSetup({ user, ip }: UserCall, password: string): Promise<TwoFactorSetupResponse> {
    if ((await this.repository.find(this.dataSource.manager, user.userId))?.enabled_at)
      throw new DomainError('CONFLICT', TWO_FACTOR_ALREADY_ON);
    await this.verification.assertVerified(this.dataSource.manager, user.userId, 'twoFactor');
    await this.passwords.confirmCurrent(user, password, ip);
    const secret = newTotpSecret();
    const sealed = this.box.seal(secret, 'user', user.userId);
    if (!(await this.repository.startSetup(this.dataSource.manager, user.userId, sealed)))
      throw new DomainError('CONFLICT', TWO_FACTOR_ALREADY_ON);
    return { secret, otpauthUri: otpauthUri(TWO_FACTOR_ISSUER, user.email, secret) };
  }

  /** A code from the app turns two-factor on; the recovery codes, shown this once. */
  async confirmSetup({ user, ip }: UserCall, code: string): Promise<RecoveryCodesResponse> {
    return this.dataSource.transaction(async (tx) => {
      const row = await this.repository.find(tx, user.userId);
      if (row === undefined) throw new DomainError('CONFLICT', NO_SETUP_STARTED);
      if (row.enabled_at !== null) throw new DomainError('CONFLICT', TWO_FACTOR_ALREADY_ON);
      const step = matchTotp(this.key(row, user.userId), code.replace(/\s/g, ''), Date.now());
      if (step === undefined) throw new DomainError('INVALID_TWO_FACTOR_CODE', INVALID_SETUP_CODE);
      if ((await this.repository.enable(tx, user.userId, step)) === null)
        throw new DomainError('CONFLICT', TWO_FACTOR_ALREADY_ON);
      const recoveryCodes = await this.newRecoveryCodes(tx, user.userId);
      await auditAccountEvent(
        tx,
        { id: user.userId, name: user.userName },
        { action: 'member.two_factor_enabled', metadata: { method: 'totp' } },
        ip,
      );
      return { recoveryCodes };
    });
  }

  /** Turns two-factor off, given the password and a code (the app's, or a recovery code). */
  async disable({ user, ip }: UserCall, password: string, code: string) {
    await this.dataSource.transaction(async (tx) => {
      const row = await this.repository.find(tx, user.userId);
      if (row?.enabled_at == null) throw new DomainError('CONFLICT', TWO_FACTOR_NOT_ON);
      let factor: SecondFactor | undefined;
      // The code is checked inside the password's throttle: a wrong one counts as a failed sign-in.
      await this.passwords.confirmCurrent(user, password, ip, async () => {
        factor = await this.takeCode(tx, user.userId, row, code);
        if (factor === undefined)
          throw new DomainError('INVALID_TWO_FACTOR_CODE', INVALID_SIGN_IN_CODE);
      });
      await this.repository.remove(tx, user.userId);
      await auditAccountEvent(
        tx,
        { id: user.userId, name: user.userName },
        {
          action: 'member.two_factor_disabled',
          metadata: { method: 'totp', via: factor?.via ?? 'totp' },
        },
        ip,
      );
    });
  }

  /** A new set of recovery codes, given the password; the earlier ones stop working. */
  async regenerateRecoveryCodes(
    { user, ip }: UserCall,
    password: string,
  ): Promise<RecoveryCodesResponse> {
    const row = await this.repository.find(this.dataSource.manager, user.userId);
    if (row?.enabled_at == null) throw new DomainError('CONFLICT', TWO_FACTOR_NOT_ON);
    await this.passwords.confirmCurrent(user, password, ip);
    return this.dataSource.transaction(async (tx) => {
      const recoveryCodes = await this.newRecoveryCodes(tx, user.userId);
      await auditAccountEvent(
        tx,
        { id: user.userId, name: user.userName },
        {
          action: 'member.recovery_codes_regenerated',
          metadata: { count: recoveryCodes.length },
        },
        ip,
      );
      return { recoveryCodes };
    });
  }

  /**
   * Sign-in's second step, for a person whose password was right: nothing when two-factor is off;
   * 401 TWO_FACTOR_REQUIRED without a code; 403 INVALID_TWO_FACTOR_CODE for a wrong, used or
   * replayed one. A recovery code used is audited in the caller's transaction.
   */
  async signInStep(
    tx: Queryable,
    person: { id: string; name: string },
    code: string | undefined,
    ip: string | null,
  ): Promise<SecondFactor | undefined> {
    const row = await this.repository.find(tx, person.id);
    if (row?.enabled_at == null) return undefined;
    if (code === undefined || code.trim() === '') throw DomainError.of('TWO_FACTOR_REQUIRED');
    const factor = await this.takeCode(tx, person.id, row, code);
    if (factor === undefined)
      throw new DomainError('INVALID_TWO_FACTOR_CODE', INVALID_SIGN_IN_CODE);
    if (factor.via === 'recovery_code')
      await auditAccountEvent(
        tx,
        person,
        { action: 'member.recovery_code_used', metadata: { left: factor.left } },
        ip,
      );
    return factor;
  }

  /** Takes a code once: the app's (a later step than any taken) or an unused recovery code. */
  private async takeCode(
    db: Queryable,
    userId: string,
    row: TwoFactorRow,
    code: string,
  ): Promise<SecondFactor | undefined> {
    const digits = code.replace(/\s/g, '');
    if (/^\d{6}$/.test(digits)) {
      const step = matchTotp(this.key(row, userId), digits, Date.now());
      return step !== undefined && (await this.repository.takeStep(db, userId, step))
        ? { via: 'totp' }
        : undefined;
    }
    const left = await this.repository.useRecoveryCode(db, userId, recoveryCodeHash(code));
    return left === undefined ? undefined : { via: 'recovery_code', left };
  }

  /** The person's key, base32, as their authenticator app holds it. */
  private key(row: TwoFactorRow, userId: string): string {
    return this.box.open(row.secret_sealed, 'user', userId);
  }

  private async newRecoveryCodes(tx: Queryable, userId: string): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await this.repository.replaceRecoveryCodes(tx, userId, codes.map(recoveryCodeHash));
    return codes;
  }
}
