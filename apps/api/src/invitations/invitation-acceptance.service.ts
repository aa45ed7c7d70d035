import { DomainError } from '@interlock/domain';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import type { SignedIn } from '../auth/auth.service';
import { hashPassword } from '../auth/password.util';
import { SignInSessionService } from '../auth/sign-in-session.service';
import type { UserCall } from '../auth/caller';
import { wellFormedTokenHash } from '../database/hashed-token.util';
import type { Queryable } from '../database/query-rows.util';
import { InvitationEmailProof } from '../notify/invitation-email-proof.util';
import { refuseJoinWithoutSso } from '../sso/sso-requirement.util';
import { describeJoined } from '../users/account.util';
import { EmailVerificationService } from '../users/email-verification.service';
import type { OrganisationJoinedResponse } from '../users/dto/account.response';
import {
  accountExists,
  findUserByEmail,
  insertUser,
  normaliseEmail,
} from '../users/users.repository';
import type { InvitationPreviewResponse } from './dto/invitation.response';
import { admitByInvitation } from './invitation-admission.util';
import { InvitationsRepository, PendingInvitationRow } from './invitations.repository';

export const SIGN_IN_TO_ACCEPT =
  'An account with this email already exists: sign in, then accept the invitation.';
export const UNVERIFIED_HOLDER_OF_ADDRESS =
  'An account with this email already exists, but its address was never verified. If it is yours, sign in, then accept the invitation; if it is not, choose "Forgot your password?" on the sign-in page: the link goes only to this mailbox, and the account becomes yours.';
export const INVITATION_FOR_ANOTHER_EMAIL = 'This invitation was sent to another email address.';
export const YOU_ARE_ALREADY_A_MEMBER = 'You are already a member of this organisation.';
export const INVITATION_PROOF_INVALID =
  "This invitation link's address proof is not valid: open the link in the invitation email again.";

/**
 * An invitation as its token's holder uses it (SPEC §6, §8f): what it offers, and joining the
 * organisation with its role — with a new account (signing up from the link) or an existing one
 * (signed in). The organisation's side, inviting and withdrawing: `InvitationsService`.
 */
@Injectable()
export class InvitationAcceptanceService {
  private readonly emailProof: InvitationEmailProof;

  constructor(
    private readonly dataSource: DataSource,
    private readonly invitations: InvitationsRepository,
    private readonly signIns: SignInSessionService,
    private readonly verification: EmailVerificationService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.emailProof = new InvitationEmailProof(config.apiKeyPepper);
  }

  /** What a pending invitation offers, for whoever holds its token: 404 when unknown, used or expired. */
  async preview(token: string): Promise<InvitationPreviewResponse> {
    const hash = wellFormedTokenHash(token);
    const invitation =
      hash === undefined
        ? undefined
        : await this.invitations.findPendingByToken(this.dataSource, hash, false);
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
   * (sign in and accept with `join`; where that account never verified the address, the 409
   * says how its owner claims it: a password reset).
   */
  async accept(
    token: string,
    name: string,
    password: string,
    ip: string | null,
    emailProof?: string,
  ): Promise<SignedIn<OrganisationJoinedResponse>> {
    const hash = wellFormedTokenHash(token);
    if (hash === undefined) throw DomainError.of('NOT_FOUND');
    // Checked before the deliberately slow password hash, so a guessed token costs no scrypt.
    const pending = await this.invitations.findPendingByToken(this.dataSource, hash, false);
    if (pending === undefined) throw DomainError.of('NOT_FOUND');
    const proven = this.provenBy(emailProof, pending);
    const passwordHash = await hashPassword(password, this.config.accounts.passwordScryptLogN);

    const accepted = await this.dataSource
      .transaction(async (tx) => {
        // Locked, and re-checked once the lock is granted: of two concurrent accepts, one wins.
        const invitation = await this.invitations.findPendingByToken(tx, hash, true);
        if (invitation === undefined) throw DomainError.of('NOT_FOUND');
        await refuseJoinWithoutSso(tx, invitationOrganisation(invitation));
        const userId = await insertUser(tx, { email: invitation.email, name, passwordHash }, () =>
          accountExists(SIGN_IN_TO_ACCEPT),
        );
        await this.admit(tx, invitation, { userId, name, ip });
        if (proven)
          await this.verification.provenByInvitation(
            tx,
            { id: userId, name, email: normaliseEmail(invitation.email) },
            ip,
          );
        const session = await this.signIns.create(tx, userId);
        return { ...session, body: await describeJoined(tx, userId, invitation.organisation_id) };
      })
      .catch(async (error: unknown) => {
        // The address is taken: by someone who never proved it, the answer says how to claim it.
        if (error instanceof DomainError && error.message === SIGN_IN_TO_ACCEPT) {
          const holder = await findUserByEmail(this.dataSource.manager, pending.email);
          if (holder !== undefined && holder.email_verified_at === null)
            throw new DomainError('CONFLICT', UNVERIFIED_HOLDER_OF_ADDRESS);
        }
        throw error;
      });
    // The token alone is not proof of the address (the inviter holds it too): without the
    // email's proof the new account verifies it as a sign-up does (SPEC §8f).
    if (!proven) this.verification.newAccount(accepted.body.user);
    return accepted;
  }

  /**
   * A signed-in person accepts an invitation sent to their email address: their user gains a
   * membership of the organisation (a former member's begins anew). The email's proof, when
   * given, verifies their address (it is the invitation's). 404 for an unknown, expired or used
   * token; 400 for a proof that is not this invitation's; 403 when it was sent to another
   * address, or (where verification is required) while their address is unverified and no proof
   * came; 409 when they are a member already.
   */
  async join(
    { user, ip }: UserCall,
    token: string,
    emailProof?: string,
  ): Promise<OrganisationJoinedResponse> {
    const hash = wellFormedTokenHash(token);
    if (hash === undefined) throw DomainError.of('NOT_FOUND');
    return this.dataSource.transaction(async (tx) => {
      const invitation = await this.invitations.findPendingByToken(tx, hash, true);
      if (invitation === undefined) throw DomainError.of('NOT_FOUND');
      const proven = this.provenBy(emailProof, invitation);
      if (invitation.email !== user.email)
        throw new DomainError('FORBIDDEN', INVITATION_FOR_ANOTHER_EMAIL);
      await refuseJoinWithoutSso(tx, invitationOrganisation(invitation));
      // An unproven address cannot take what was sent to its real owner (SPEC §8f); the email's
      // proof is that owner's mailbox, as a verification link is.
      if (!proven) await this.verification.assertVerified(tx, user.userId, 'join');
      await this.admit(tx, invitation, { userId: user.userId, name: user.userName, ip });
      // After the membership, so the new organisation's log shows it too (as accepting does).
      if (proven) {
        const person = { id: user.userId, name: user.userName, email: user.email };
        await this.verification.provenByInvitation(tx, person, ip);
      }
      return describeJoined(tx, user.userId, invitation.organisation_id);
    });
  }

  /**
   * Whether the emailed link's fragment came (it proves the address: SPEC §8f); a proof that is
   * not this invitation's, for its address, is refused before anything is made.
   */
  private provenBy(emailProof: string | undefined, invitation: PendingInvitationRow): boolean {
    if (emailProof === undefined) return false;
    if (!this.emailProof.matches(emailProof, invitation.id, invitation.email))
      throw new DomainError('INVALID_TOKEN', INVITATION_PROOF_INVALID);
    return true;
  }

  /** The membership, the invitation marked used and the `member.joined` entry (inside the caller's transaction). */
  private async admit(
    tx: Queryable,
    invitation: PendingInvitationRow,
    who: { userId: string; name: string; ip: string | null },
  ): Promise<void> {
    if ((await admitByInvitation(tx, this.invitations, invitation, who)) === 'already')
      throw new DomainError('CONFLICT', YOU_ARE_ALREADY_A_MEMBER);
  }
}

function invitationOrganisation(invitation: PendingInvitationRow): { id: string; name: string } {
  return { id: invitation.organisation_id, name: invitation.organisation_name };
}
