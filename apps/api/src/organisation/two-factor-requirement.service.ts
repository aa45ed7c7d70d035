import { writeAuditEntry } from '@interlock/audit';
import { DomainError } from '@interlock/domain';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { MemberCall } from '../auth/caller';
import { organisationsOfUser } from '../members/memberships.repository';
import { TwoFactorRepository } from '../users/two-factor.repository';
import type { TwoFactorRequirementResponse } from './dto/two-factor-requirement.dto';
import { OrganisationsRepository } from './organisations.repository';

/** The refusals of `PUT /api/organisation/two-factor-requirement` (SPEC §8f). */
export const TWO_FACTOR_REQUIREMENT_MESSAGES = {
  ownerOnly: 'Only an Owner can change whether this organisation requires two-factor sign-in.',
  ownFirst:
    'Turn on two-factor sign-in for your own account first (Settings → Security): requiring it would refuse you too.',
} as const;

/**
 * "Require two-factor sign-in for members" (SPEC §8f, issue 33 §2): an Owner's setting, audited.
 * It is enforced where every cookie request is authenticated (the sign-in lookup), not here.
 */
@Injectable()
export class TwoFactorRequirementService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly organisations: OrganisationsRepository,
    private readonly twoFactor: TwoFactorRepository,
  ) {}

  async get(organisationId: string): Promise<TwoFactorRequirementResponse> {
    const required = await this.organisations.requiresTwoFactor(this.dataSource, organisationId);
    if (required === undefined) throw DomainError.of('NOT_FOUND');
    return { requireTwoFactor: required };
  }

  /**
   * Only an Owner changes it (403 `FORBIDDEN`), and turns it on only with two-factor sign-in on
   * for themselves (409 `CONFLICT`: otherwise their own next request would be refused). Setting
   * what is set changes and audits nothing.
   */
  async set(
    { organisationId, actor, ip }: MemberCall,
    requireTwoFactor: boolean,
  ): Promise<TwoFactorRequirementResponse> {
    await this.dataSource.transaction(async (tx) => {
      // FOR NO KEY UPDATE: a setting, not a key (see OrganisationsRepository.lock).
      const organisation = await this.organisations.lock(tx, organisationId, 'FOR NO KEY UPDATE');
      if (organisation === undefined) throw DomainError.of('NOT_FOUND');
      const membership = (await organisationsOfUser(tx, actor.id)).find(
        (o) => o.id === organisationId,
      );
      if (membership?.role_built_in !== 'owner')
        throw new DomainError('FORBIDDEN', TWO_FACTOR_REQUIREMENT_MESSAGES.ownerOnly);
      if (requireTwoFactor && (await this.twoFactor.find(tx, actor.id))?.enabled_at == null)
        throw new DomainError('CONFLICT', TWO_FACTOR_REQUIREMENT_MESSAGES.ownFirst);
      if (!(await this.organisations.setRequireTwoFactor(tx, organisationId, requireTwoFactor)))
        return;
      await writeAuditEntry(tx, {
        organisationId,
        action: 'settings.two_factor_requirement_changed',
        actor,
        target: { type: 'organisation', id: organisationId, name: organisation.name },
        metadata: { requireTwoFactor },
        ipAddress: ip,
      });
    });
    return { requireTwoFactor };
  }
}
