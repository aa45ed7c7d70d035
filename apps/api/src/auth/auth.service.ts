import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Plan } from '@interlock/domain';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import { ApiError } from '../http/api-error';
import { normaliseEmail, OrganisationSetupService } from '../organisation/organisation-setup.service';
import { AuthAttemptLimiter } from '../rate-limits/auth-attempt-limiter.service';
import { DECOY_PASSWORD_HASH, verifyPassword } from './password.util';
import { SessionService } from './session.service';
import type { SignedInResponse } from './dto/session.response';
import type { SignUpDto } from './dto/sign-up.dto';

export interface SignedIn {
  token: string;
  expiresAt: Date;
  body: SignedInResponse;
}

/** The signed-in response body for a member: who they are and their organisation. */
export async function signedInBody(db: EntityManager, organisationId: string, memberId: string): Promise<SignedIn['body']> {
  const [row]: { id: string; email: string; name: string; role_id: string; organisation_name: string; plan: Plan }[] =
    await db.query(
      `SELECT m.id, m.email, m.name, m.role_id, o.name AS organisation_name, o.plan
         FROM members m JOIN organisations o ON o.id = m.organisation_id
        WHERE m.organisation_id = $1 AND m.id = $2`,
      [organisationId, memberId],
    );
  if (row === undefined) throw ApiError.of('NOT_FOUND');
  return {
    member: { id: row.id, email: row.email, name: row.name, roleId: row.role_id },
    organisation: { id: organisationId, name: row.organisation_name, plan: row.plan },
  };
}

@Injectable()
export class AuthService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly sessions: SessionService,
    private readonly setup: OrganisationSetupService,
    private readonly limiter: AuthAttemptLimiter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async signUp(input: SignUpDto, ip: string | null): Promise<SignedIn> {
    if (this.config.signup === 'closed') {
      throw new ApiError('SIGNUP_CLOSED', 'Sign-up is closed on this server; ask an administrator for an invitation.');
    }
    await this.limiter.signUpAttempt(normaliseEmail(input.email), ip);
    const { organisationId, ownerId, session } = await this.dataSource.transaction(async (tx) => {
      const created = await this.setup.create(tx, {
        organisationName: input.organisationName,
        ownerEmail: input.email,
        ownerName: input.name,
        password: input.password,
        ipAddress: ip,
      });
      return { ...created, session: await this.sessions.create(tx, created.organisationId, created.ownerId) };
    });
    return { ...session, body: await this.describe(organisationId, ownerId) };
  }

  /**
   * Unknown email and wrong password answer alike and take the same time (one scrypt each); so
   * does the throttle (SPEC §8b), which counts failures per email whether or not it exists.
   */
  async signIn(email: string, password: string, ip: string | null): Promise<SignedIn> {
    const succeeded = await this.limiter.beginSignIn(normaliseEmail(email), ip);
    const [member]: { organisation_id: string; id: string; password_hash: string }[] = await this.dataSource.query(
      `SELECT organisation_id, id, password_hash FROM members WHERE email = $1`,
      [normaliseEmail(email)],
    );
    const ok = await verifyPassword(password, member?.password_hash ?? (await DECOY_PASSWORD_HASH));
    if (member === undefined || !ok) throw new ApiError('INVALID_CREDENTIALS', 'Invalid email or password.');
    await succeeded();
    const session = await this.sessions.create(this.dataSource.manager, member.organisation_id, member.id);
    return { ...session, body: await this.describe(member.organisation_id, member.id) };
  }

  async describe(organisationId: string, memberId: string): Promise<SignedIn['body']> {
    return signedInBody(this.dataSource.manager, organisationId, memberId);
  }
}
