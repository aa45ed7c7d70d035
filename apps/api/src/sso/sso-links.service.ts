import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { UserPrincipal } from '../auth/principal';
import { organisationsOfUser } from '../members/memberships.repository';
import type { MySingleSignOnResponse } from './dto/sso.dto';
import { domainOf } from './sso-sign-in.service';
import { SsoRepository } from './sso.repository';

/**
 * Settings → Security's single sign-on (SPEC §8f): the person's organisations whose provider
 * signs in their address, and whether their account is linked to it.
 */
@Injectable()
export class SsoLinksService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly sso: SsoRepository,
  ) {}

  async of(user: UserPrincipal): Promise<MySingleSignOnResponse> {
    // A proven domain is one organisation's: at most one signs this address in.
    const organisationId = await this.sso.organisationOfDomain(
      this.dataSource,
      domainOf(user.email) ?? '',
    );
    // A single sign-on session acts for its organisation only, and says nothing of the others.
    if (
      organisationId === undefined ||
      (user.ssoOrganisationId !== null && user.ssoOrganisationId !== organisationId)
    )
      return { organisations: [] };
    const membership = (await organisationsOfUser(this.dataSource, user.userId)).find(
      (o) => o.id === organisationId,
    );
    const connection = await this.sso.read(this.dataSource, organisationId);
    if (membership === undefined || connection === undefined) return { organisations: [] };
    const since = await this.sso.linkedSince(
      this.dataSource,
      organisationId,
      connection.issuer,
      user.userId,
    );
    return {
      organisations: [
        {
          organisationId,
          organisationName: membership.name,
          issuer: connection.issuer,
          linkedAt: since?.toISOString() ?? null,
        },
      ],
    };
  }
}
