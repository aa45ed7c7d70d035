import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { writeAuditEntry } from '@interlock/audit';
import { signedInBody, type SignedIn } from '../auth/auth.service';
import { hashPassword } from '../auth/password.util';
import { actorOf, MemberPrincipal } from '../auth/principal';
import { SessionService } from '../auth/session.service';
import { hasSqlState, UNIQUE_VIOLATION } from '../database/sql-state.util';
import { ApiError } from '../http/api-error';
import { normaliseEmail } from '../organisation/organisation-setup.service';
import { RolesService } from '../roles/roles.service';
import type { CreatedInvitationResponse, InvitationResponse } from './dto/invitation.response';

const INVITATION_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;
/** 32 random bytes, base64url: 43 characters. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

interface InvitationRow {
  id: string;
  email: string;
  role_id: string;
  created_at: Date;
  expires_at: Date;
  accepted_at: Date | null;
}

interface PendingRow {
  organisation_id: string;
  id: string;
  email: string;
  role_id: string;
  role_name: string;
}

function toResponse(row: InvitationRow): InvitationResponse {
  return {
    id: row.id,
    email: row.email,
    roleId: row.role_id,
    createdAt: row.created_at.toISOString(),
    expiresAt: row.expires_at.toISOString(),
    acceptedAt: row.accepted_at?.toISOString() ?? null,
  };
}

const emailTaken = () => new ApiError('CONFLICT', 'An account with this email already exists.');

/**
 * Invitations (SPEC §6, member.invite): a one-time token, shown once and stored as its SHA-256,
 * valid for 7 days, that lets a person join the organisation with the invitation's role.
 */
@Injectable()
export class InvitationsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly roles: RolesService,
    private readonly sessions: SessionService,
  ) {}

  /** Pending and accepted invitations, newest first; expired ones that were never used are gone. */
  async list(member: MemberPrincipal): Promise<InvitationResponse[]> {
    const rows: InvitationRow[] = await this.dataSource.query(
      `SELECT id, email, role_id, created_at, expires_at, accepted_at FROM invitations
        WHERE organisation_id = $1 AND (accepted_at IS NOT NULL OR expires_at > now())
        ORDER BY created_at DESC, id DESC`,
      [member.organisationId],
    );
    return rows.map(toResponse);
  }

  async create(member: MemberPrincipal, email: string, roleId: string, ip: string | null): Promise<CreatedInvitationResponse> {
    const address = normaliseEmail(email);
    const token = randomBytes(32).toString('base64url');
    const id = randomUUID();
    const createdAt = new Date();
    const expiresAt = new Date(createdAt.getTime() + INVITATION_DAYS * DAY_MS);
    const role = await this.dataSource.transaction(async (tx) => {
      const granted = await this.roles.findGrantable(tx, member, roleId);
      // Emails are unique across the service (sign-in is by email), not per organisation.
      const [taken]: unknown[] = await tx.query(`SELECT 1 FROM members WHERE email = $1`, [address]);
      if (taken !== undefined) throw emailTaken();
      await tx.query(
        `INSERT INTO invitations (organisation_id, id, email, role_id, token_hash, invited_by, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [member.organisationId, id, address, granted.id, tokenHash(token), member.memberId, createdAt, expiresAt],
      );
      await writeAuditEntry(tx, {
        organisationId: member.organisationId,
        action: 'member.invited',
        actor: actorOf(member),
        target: { type: 'invitation', id, name: address },
        summary: `${address} invited as ${granted.name} by ${member.memberName}`,
        metadata: { roleId: granted.id, role: granted.name, expiresAt: expiresAt.toISOString() },
        ipAddress: ip,
      });
      return granted;
    });
    return {
      id,
      email: address,
      roleId: role.id,
      createdAt: createdAt.toISOString(),
      expiresAt: expiresAt.toISOString(),
      token,
    };
  }

  /**
   * Creates the member in the invitation's organisation with its role, marks the invitation
   * used and signs the new member in — all in one transaction. An unknown, expired or used
   * token answers 404.
   */
  async accept(token: string, name: string, password: string, ip: string | null): Promise<SignedIn> {
    if (!TOKEN_PATTERN.test(token)) throw ApiError.of('NOT_FOUND');
    const hash = tokenHash(token);
    // Checked before the deliberately slow password hash, so a guessed token costs no scrypt.
    if ((await this.findPending(this.dataSource.manager, hash, false)) === undefined) throw ApiError.of('NOT_FOUND');
    const passwordHash = await hashPassword(password);

    return this.dataSource.transaction(async (tx) => {
      // Locked, and re-checked once the lock is granted: of two concurrent accepts, one wins.
      const invitation = await this.findPending(tx, hash, true);
      if (invitation === undefined) throw ApiError.of('NOT_FOUND');
      const orgId = invitation.organisation_id;
      const [taken]: unknown[] = await tx.query(`SELECT 1 FROM members WHERE email = $1`, [invitation.email]);
      if (taken !== undefined) throw emailTaken();

      const memberId = randomUUID();
      try {
        await tx.query(
          `INSERT INTO members (organisation_id, id, email, name, password_hash, role_id) VALUES ($1, $2, $3, $4, $5, $6)`,
          [orgId, memberId, invitation.email, name, passwordHash, invitation.role_id],
        );
      } catch (error) {
        if (hasSqlState(error, UNIQUE_VIOLATION)) throw emailTaken();
        throw error;
      }
      await tx.query(`UPDATE invitations SET accepted_at = now() WHERE organisation_id = $1 AND id = $2`, [
        orgId,
        invitation.id,
      ]);
      const session = await this.sessions.create(tx, orgId, memberId);
      await writeAuditEntry(tx, {
        organisationId: orgId,
        action: 'member.joined',
        actor: { type: 'member', id: memberId, name },
        target: { type: 'user', id: memberId, name },
        summary: `${name} joined as ${invitation.role_name}`,
        metadata: {
          invitationId: invitation.id,
          email: invitation.email,
          roleId: invitation.role_id,
          role: invitation.role_name,
        },
        ipAddress: ip,
      });
      return { ...session, body: await signedInBody(tx, orgId, memberId) };
    });
  }

  /** The invitation a token names, if it is unused and unexpired (the token names its organisation). */
  private async findPending(db: EntityManager, hash: string, lock: boolean): Promise<PendingRow | undefined> {
    const [row]: PendingRow[] = await db.query(
      `SELECT i.organisation_id, i.id, i.email, i.role_id, r.name AS role_name
         FROM invitations i JOIN roles r ON r.organisation_id = i.organisation_id AND r.id = i.role_id
        WHERE i.token_hash = $1 AND i.accepted_at IS NULL AND i.expires_at > now()
        ${lock ? 'FOR UPDATE OF i' : ''}`,
      [hash],
    );
    return row;
  }
}
