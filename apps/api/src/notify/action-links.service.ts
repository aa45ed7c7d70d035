import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DomainError } from '@interlock/domain';
import type { Queryable } from '../database/query-rows.util';
import { actionDigest } from '../interrupts/action-digest.util';
import { InterruptReviewService } from '../interrupts/interrupt-review.service';
import { InterruptsService } from '../interrupts/interrupts.service';
import { lockCurrentMemberHolding } from '../members/memberships.repository';
import { OrganisationsRepository } from '../organisation/organisations.repository';
import type { ActionLinkClaims } from './action-link-token.util';
import { ActionLinkSigner } from './action-link-token.util';
import type { ActionLinkPreviewResponse } from './dto/action-link.dto';
import type { InterruptResponse } from '../interrupts/dto/interrupt.response';
import { NotificationsRepository } from './notifications.repository';

/** The exact texts of the refusals (SPEC §8h). */
export const ACTION_LINK_ERRORS = {
  invalid: 'This link is not valid (it was changed, cut short, or not made by this service).',
  expired:
    'This link has expired (links in emails work for 24 hours): open the interrupt in Interlock to decide.',
  off: 'This organisation does not let email links decide: sign in to Interlock to decide.',
  member: 'The member this link was sent to may no longer decide interrupts in this organisation.',
  changed:
    'This action is not the one the email showed: open the interrupt in Interlock to decide.',
  used: 'This link was already used.',
} as const;

/**
 * Deciding from an email without signing in (issue 30, §2), where the organisation turned it on:
 * the link's token names the member, the interrupt, the action, its digest and the decision, and
 * works once, for 24 hours. Reading what a link would do (`preview`) changes nothing; `decide`
 * checks everything again inside the decision's transaction — the organisation still allows it,
 * the member is still one and still holds `interrupt.decide`, the action still hashes to the
 * digest, the link was not used — and records the use there, so a link decides at most once
 * however many times or places it is posted.
 */
@Injectable()
export class ActionLinksService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly signer: ActionLinkSigner,
    private readonly repository: NotificationsRepository,
    private readonly review: InterruptReviewService,
    private readonly interrupts: InterruptsService,
    private readonly organisations: OrganisationsRepository,
  ) {}

  async preview(token: string, now = Date.now()): Promise<ActionLinkPreviewResponse> {
    const claims = this.claims(token, now);
    const org = claims.organisationId;
    const { member, organisationName } = await this.dataSource.transaction(async (tx) => {
      await this.allowed(tx, org);
      return {
        member: await this.member(tx, claims),
        organisationName: (await this.organisations.read(tx, org))?.name ?? '',
      };
    });
    const interrupt = await this.interrupts.get(org, claims.interruptId);
    const action = interrupt.actionRequests.find((a) => a.name === claims.actionName);
    if (
      action === undefined ||
      actionDigest(interrupt.id, action.name, action.args) !== claims.actionDigest
    ) {
      throw new DomainError('CONFLICT', ACTION_LINK_ERRORS.changed);
    }
    const decided = interrupt.decisions.find((d) => d.actionName === action.name);
    return {
      organisationName,
      memberName: member.name,
      interruptId: interrupt.id,
      title: interrupt.title,
      description: interrupt.description,
      status: interrupt.status,
      action: {
        name: action.name,
        description: action.description,
        args: action.args,
        allowedDecisions: action.allowedDecisions,
        responseSchema: action.responseSchema ?? null,
      },
      decision: claims.decision,
      expiresAt: new Date(claims.expiresAt * 1000).toISOString(),
      used: await this.repository.linkUsed(this.dataSource, org, claims.nonce),
      decided:
        decided === undefined
          ? null
          : {
              decision: decided.decision,
              decidedBy: decided.decidedBy.name,
              decidedAt: decided.decidedAt,
            },
    };
  }

  async decide(
    token: string,
    message: string | undefined,
    ip: string | null,
    now = Date.now(),
  ): Promise<InterruptResponse> {
    const claims = this.claims(token, now);
    return this.review.decideAuthorised(
      {
        organisationId: claims.organisationId,
        interruptId: claims.interruptId,
        actionName: claims.actionName,
        decision: claims.decision,
        ...(message === undefined ? {} : { message }),
        ip,
      },
      async (tx, action) => {
        await this.allowed(tx, claims.organisationId);
        const member = await this.member(tx, claims);
        if (actionDigest(claims.interruptId, action.name, action.args) !== claims.actionDigest) {
          throw new DomainError('CONFLICT', ACTION_LINK_ERRORS.changed);
        }
        const fresh = await this.repository.recordLinkUse(tx, claims.organisationId, {
          nonce: claims.nonce,
          interruptId: claims.interruptId,
          userId: claims.userId,
          actionName: claims.actionName,
          decision: claims.decision,
        });
        if (!fresh) throw new DomainError('CONFLICT', ACTION_LINK_ERRORS.used);
        return { actor: { type: 'member', id: member.id, name: member.name }, via: 'email_link' };
      },
    );
  }

  private claims(token: string, now: number): ActionLinkClaims {
    const claims = this.signer.read(token);
    if (claims === null) throw new DomainError('FORBIDDEN', ACTION_LINK_ERRORS.invalid);
    if (claims.expiresAt * 1000 <= now)
      throw new DomainError('FORBIDDEN', ACTION_LINK_ERRORS.expired);
    return claims;
  }

  private async allowed(tx: Queryable, organisationId: string): Promise<void> {
    const settings = await this.repository.organisationSettings(tx, organisationId, 'share');
    if (settings?.token_actions !== true)
      throw new DomainError('FORBIDDEN', ACTION_LINK_ERRORS.off);
  }

  private async member(
    tx: Queryable,
    claims: ActionLinkClaims,
  ): Promise<{ id: string; name: string }> {
    const member = await lockCurrentMemberHolding(
      tx,
      claims.organisationId,
      claims.userId,
      'interrupt.decide',
    );
    if (member === undefined || !member.holds)
      throw new DomainError('FORBIDDEN', ACTION_LINK_ERRORS.member);
    return member;
  }
}
