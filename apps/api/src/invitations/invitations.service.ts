import { DomainError } from '@interlock/domain';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { writeAuditEntry } from '@interlock/audit';
import type { SignedIn } from '../auth/auth.service';
import { hashPassword } from '../auth/password.util';
import { actorOf, MemberPrincipal, UserPrincipal } from '../auth/principal';
import { SignInSessionService } from '../auth/sign-in-session.service';
import { queryRows } from '../database/query-rows.util';
import { beginMembership, isCurrentMemberByEmail } from '../members/memberships.repository';
import { RolesService } from '../roles/roles.service';
import { describeJoined } from '../users/account.util';
import type { OrganisationJoinedResponse } from '../users/dto/account.response';
import { accountExists, insertUser, normaliseEmail } from '../users/users.repository';
import type { CreatedInvitationResponse, InvitationPreviewResponse, InvitationResponse } from './dto/invitation.response';

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
  organisation_name: string;
  id: string;
  email: string;
  role_id: string;
  role_name: string;
  expires_at: Date;
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

export const ALREADY_MEMBER = 'This email address is already a member of this organisation.';
export const ALREADY_INVITED = 'This email address already has a pending invitation to this organisation.';
export const SIGN_IN_TO_ACCEPT = 'An account with this email already exists: sign in, then accept the invitation.';
export const INVITATION_FOR_ANOTHER_EMAIL = 'This invitation was sent to another email address.';
export const YOU_ARE_ALREADY_A_MEMBER = 'You are already a member of this organisation.';

/**
 * Invitations (SPEC §6, member.invite): a one-time token, shown once and stored as its SHA-256,
 * valid for 7 days, that adds a person to the organisation with the invitation's role — a new
 * account (signing up from the link) or an existing one (signed in). Inviting an address answers
 * the same whether or not it has an account anywhere: the only conflicts are this
 * organisation's own current members and pending invitations.
 */
@Injectable()
export class InvitationsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly roles: RolesService,
    private readonly signIns: SignInSessionService,
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
      // Invitations of one organisation queue here, so two concurrent ones for an address
      // cannot both find none pending. (NO KEY UPDATE: the organisation's other writes, which
      // take KEY SHARE through their foreign keys, do not wait.)
      await tx.query(`SELECT 1 FROM organisations WHERE id = $1 FOR NO KEY UPDATE`, [member.organisationId]);
      // Only this organisation's own members and invitations: whether the address has an
      // account elsewhere is never looked at (no enumeration oracle).
      if (await isCurrentMemberByEmail(tx, member.organisationId, address)) throw new DomainError('CONFLICT', ALREADY_MEMBER);
      const pending: unknown[] = await tx.query(
        `SELECT 1 FROM invitations
          WHERE organisation_id = $1 AND email = $2 AND accepted_at IS NULL AND expires_at > now()`,
        [member.organisationId, address],
      );
      if (pending.length > 0) throw new DomainError('CONFLICT', ALREADY_INVITED);
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

  /** Withdraws a pending invitation (its token stops working); accepted or expired ones are 404. */
  async withdraw(member: MemberPrincipal, id: string, ip: string | null): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      const [row] = await queryRows<{ email: string; role_id: string; role_name: string }>(
        tx,
        `DELETE FROM invitations i USING roles r
          WHERE i.organisation_id = $1 AND i.id = $2 AND i.accepted_at IS NULL AND i.expires_at > now()
            AND r.organisation_id = i.organisation_id AND r.id = i.role_id
          RETURNING i.email, i.role_id, r.name AS role_name`,
        [member.organisationId, id],
      );
      if (row === undefined) throw DomainError.of('NOT_FOUND');
      await writeAuditEntry(tx, {
        organisationId: member.organisationId,
        action: 'member.invitation_deleted',
        actor: actorOf(member),
        target: { type: 'invitation', id, name: row.email },
        metadata: { email: row.email, roleId: row.role_id, role: row.role_name, state: 'pending', reason: 'withdrawn' },
        ipAddress: ip,
      });
    });
  }

  /** What a pending invitation offers, for whoever holds its token: 404 when unknown, used or expired. */
  async preview(token: string): Promise<InvitationPreviewResponse> {
    const invitation = TOKEN_PATTERN.test(token) ? await this.findPending(this.dataSource.manager, tokenHash(token), false) : undefined;
    if (invitation === undefined) throw DomainError.of('NOT_FOUND');
    return {
      email: invitation.email,
      organisationName: invitation.organisation_name,
      roleName: invitation.role_name,
      expiresAt: invitation.expires_at.toISOString(),
    };
  }

  /**
   * Signing up from the invitation link: a new user with the invitation's email, a membership
   * with its role, the invitation marked used and a sign-in session — one transaction. An
   * unknown, expired or used token answers 404; an email that already has an account, 409
   * (sign in and accept with `join`).
   */
  async accept(token: string, name: string, password: string, ip: string | null): Promise<SignedIn<OrganisationJoinedResponse>> {
    if (!TOKEN_PATTERN.test(token)) throw DomainError.of('NOT_FOUND');
    const hash = tokenHash(token);
    // Checked before the deliberately slow password hash, so a guessed token costs no scrypt.
    if ((await this.findPending(this.dataSource.manager, hash, false)) === undefined) throw DomainError.of('NOT_FOUND');
    const passwordHash = await hashPassword(password);

    return this.dataSource.transaction(async (tx) => {
      // Locked, and re-checked once the lock is granted: of two concurrent accepts, one wins.
      const invitation = await this.findPending(tx, hash, true);
      if (invitation === undefined) throw DomainError.of('NOT_FOUND');
      const userId = await insertUser(tx, { email: invitation.email, name, passwordHash }, () => accountExists(SIGN_IN_TO_ACCEPT));
      await this.admit(tx, invitation, { userId, name, ip });
      const session = await this.signIns.create(tx, userId);
      return { ...session, body: await describeJoined(tx, userId, invitation.organisation_id) };
    });
  }

  /**
   * A signed-in person accepts an invitation sent to their email address: their user gains a
   * membership of the organisation (a former member's begins anew). 404 for an unknown, expired
   * or used token; 403 when it was sent to another address; 409 when they are a member already.
   */
  async join(user: UserPrincipal, token: string, ip: string | null): Promise<OrganisationJoinedResponse> {
    if (!TOKEN_PATTERN.test(token)) throw DomainError.of('NOT_FOUND');
    return this.dataSource.transaction(async (tx) => {
      const invitation = await this.findPending(tx, tokenHash(token), true);
      if (invitation === undefined) throw DomainError.of('NOT_FOUND');
      if (invitation.email !== user.email) throw new DomainError('FORBIDDEN', INVITATION_FOR_ANOTHER_EMAIL);
      await this.admit(tx, invitation, { userId: user.userId, name: user.userName, ip });
      return describeJoined(tx, user.userId, invitation.organisation_id);
    });
  }

  /** The membership, the invitation marked used and the `member.joined` entry (inside the caller's transaction). */
  private async admit(
    tx: EntityManager,
    invitation: PendingRow,
    who: { userId: string; name: string; ip: string | null },
  ): Promise<void> {
    const orgId = invitation.organisation_id;
    const began = await beginMembership(tx, orgId, who.userId, invitation.role_id);
    if (began === 'already') throw new DomainError('CONFLICT', YOU_ARE_ALREADY_A_MEMBER);
    await tx.query(`UPDATE invitations SET accepted_at = now() WHERE organisation_id = $1 AND id = $2`, [orgId, invitation.id]);
    await writeAuditEntry(tx, {
      organisationId: orgId,
      action: 'member.joined',
      actor: { type: 'member', id: who.userId, name: who.name },
      target: { type: 'user', id: who.userId, name: who.name },
      metadata: {
        invitationId: invitation.id,
        email: invitation.email,
        roleId: invitation.role_id,
        role: invitation.role_name,
        ...(began === 'rejoined' ? { rejoined: true } : {}),
      },
      ipAddress: who.ip,
    });
  }

  /** The invitation a token names, if it is unused and unexpired (the token names its organisation). */
  private async findPending(db: EntityManager, hash: string, lock: boolean): Promise<PendingRow | undefined> {
    const [row]: PendingRow[] = await db.query(
      `SELECT i.organisation_id, o.name AS organisation_name, i.id, i.email, i.role_id, r.name AS role_name, i.expires_at
         FROM invitations i
         JOIN roles r ON r.organisation_id = i.organisation_id AND r.id = i.role_id
         JOIN organisations o ON o.id = i.organisation_id
        WHERE i.token_hash = $1 AND i.accepted_at IS NULL AND i.expires_at > now()
        ${lock ? 'FOR UPDATE OF i' : ''}`,
      [hash],
    );
    return row;
  }
}
