import { DomainError } from '@interlock/domain';
import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { writeAuditEntry } from '@interlock/audit';
import { newSecretToken, secretTokenHash } from '../database/hashed-token.util';
import { isCurrentMemberByEmail } from '../members/memberships.repository';
import { NotificationOutbox } from '../notify/notification-outbox';
import { OrganisationsRepository } from '../organisation/organisations.repository';
import type { GranterCall, MemberCall } from '../auth/caller';
import { RolesRepository } from '../roles/roles.repository';
import { RolesService } from '../roles/roles.service';
import { normaliseEmail } from '../users/users.repository';
import type { CreatedInvitationResponse, InvitationResponse } from './dto/invitation.response';
import { InvitationRow, InvitationsRepository } from './invitations.repository';

const INVITATION_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

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
export const ALREADY_INVITED =
  'This email address already has a pending invitation to this organisation.';

/**
 * Invitations, as the organisation's members with member.invite manage them (SPEC §6): a one-time
 * token, shown once and stored as its SHA-256, valid for 7 days, that adds a person to the
 * organisation with the invitation's role (its holder's side: `InvitationAcceptanceService`).
 * Inviting an address answers the same whether or not it has an account anywhere: the only
 * conflicts are this organisation's own current members and pending invitations.
 */
@Injectable()
export class InvitationsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly invitations: InvitationsRepository,
    private readonly roles: RolesService,
    private readonly roleRows: RolesRepository,
    private readonly organisations: OrganisationsRepository,
    private readonly notifications: NotificationOutbox,
  ) {}

  /** Pending and accepted invitations, newest first; expired ones that were never used are gone. */
  async list(organisationId: string): Promise<InvitationResponse[]> {
    return (await this.invitations.list(this.dataSource, organisationId)).map(toResponse);
  }

  async create(
    { organisationId, ip, ...granter }: GranterCall,
    email: string,
    roleId: string,
  ): Promise<CreatedInvitationResponse> {
    const address = normaliseEmail(email);
    const token = newSecretToken();
    const id = randomUUID();
    const createdAt = new Date();
    const expiresAt = new Date(createdAt.getTime() + INVITATION_DAYS * DAY_MS);
    const role = await this.dataSource.transaction(async (tx) => {
      const granted = await this.roles.findGrantable(
        tx,
        organisationId,
        granter.permissions,
        roleId,
      );
      // Invitations of one organisation queue here, so two concurrent ones for an address
      // cannot both find none pending. (NO KEY UPDATE: the organisation's other writes, which
      // take KEY SHARE through their foreign keys, do not wait.)
      await this.organisations.lock(tx, organisationId, 'FOR NO KEY UPDATE');
      // Only this organisation's own members and invitations: whether the address has an
      // account elsewhere is never looked at (no enumeration oracle).
      if (await isCurrentMemberByEmail(tx, organisationId, address))
        throw new DomainError('CONFLICT', ALREADY_MEMBER);
      if (await this.invitations.hasPending(tx, organisationId, address))
        throw new DomainError('CONFLICT', ALREADY_INVITED);
      await this.invitations.insert(tx, organisationId, {
        id,
        email: address,
        roleId: granted.id,
        tokenHash: secretTokenHash(token),
        invitedBy: granter.actor.id,
        createdAt,
        expiresAt,
      });
      await writeAuditEntry(tx, {
        organisationId,
        action: 'member.invited',
        actor: granter.actor,
        target: { type: 'invitation', id, name: address },
        metadata: { roleId: granted.id, role: granted.name, expiresAt: expiresAt.toISOString() },
        ipAddress: ip,
      });
      // The link is emailed too (issue 30); the response still carries the token to copy by hand.
      await this.notifications.writeInvitation(tx, organisationId, {
        invitationId: id,
        email: address,
        token,
        inviterName: granter.actor.name,
        roleName: granted.name,
        expiresAt: expiresAt.toISOString(),
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
  async withdraw({ organisationId, actor, ip }: MemberCall, id: string): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      const row = await this.invitations.deletePending(tx, organisationId, id);
      if (row === undefined) throw DomainError.of('NOT_FOUND');
      // The role's name for the entry, from its owner (a second statement: withdrawing is rare).
      // The role still exists: deleting it locks its invitations first, so it waits for this one.
      const role = await this.roleRows.lock(tx, organisationId, row.role_id, 'FOR KEY SHARE');
      if (role === undefined) throw DomainError.of('NOT_FOUND');
      await writeAuditEntry(tx, {
        organisationId,
        action: 'member.invitation_deleted',
        actor,
        target: { type: 'invitation', id, name: row.email },
        metadata: {
          email: row.email,
          roleId: row.role_id,
          role: role.name,
          state: 'pending',
          reason: 'withdrawn',
        },
        ipAddress: ip,
      });
    });
  }
}
