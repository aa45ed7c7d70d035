import { DomainError } from '@interlock/domain';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Plan } from '@interlock/domain';
import { writeAuditEntry } from '@interlock/audit';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import { describeJoined } from '../users/account.util';
import type { OrganisationJoinedResponse } from '../users/dto/account.response';
import { OrganisationSetupService } from './organisation-setup.service';
import { NotificationBus } from '../notifications/notification-bus';
import { AUTH_CHANNEL } from '../api-keys/api-key-cache';
import { AllowancesService } from '../allowances/allowances.service';
import type { OrganisationResponse } from './dto/organisation.response';
import { OrganisationsRepository } from './organisations.repository';
import type { MemberCall, UserCall } from '../auth/caller';

@Injectable()
export class OrganisationService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly organisations: OrganisationsRepository,
    private readonly bus: NotificationBus,
    private readonly allowances: AllowancesService,
    private readonly setup: OrganisationSetupService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * A signed-in person creates another organisation, which they own. With sign-up closed, only
   * the operator creates organisations (the CLI).
   */
  async create({ user, ip }: UserCall, name: string): Promise<OrganisationJoinedResponse> {
    if (this.config.signup === 'closed') {
      throw new DomainError(
        'SIGNUP_CLOSED',
        'Creating organisations is closed on this server; ask an administrator.',
      );
    }
    return this.dataSource.transaction(async (tx) => {
      const { organisationId } = await this.setup.create(tx, {
        organisationName: name,
        owner: { userId: user.userId, name: user.userName },
        ipAddress: ip,
      });
      return describeJoined(tx, user.userId, organisationId);
    });
  }

  async get(organisationId: string): Promise<OrganisationResponse> {
    const row = await this.organisations.read(this.dataSource, organisationId);
    if (row === undefined) throw DomainError.of('NOT_FOUND');
    return {
      id: row.id,
      name: row.name,
      plan: row.plan,
      createdAt: row.created_at.toISOString(),
      usage: await this.allowances.summary(organisationId),
    };
  }

  async changePlan(
    { organisationId, actor, ip }: MemberCall,
    plan: Plan,
  ): Promise<OrganisationResponse> {
    await this.dataSource.transaction(async (tx) => {
      // FOR NO KEY UPDATE, not FOR UPDATE: a write of the organisation that wrote its audit entry
      // and then takes KEY SHARE on this row (a foreign key) would wait for this one while this one
      // waits for the audit head it holds — a deadlock (seen in the contract test).
      const before = await this.organisations.lock(tx, organisationId, 'FOR NO KEY UPDATE');
      if (before === undefined) throw DomainError.of('NOT_FOUND');
      if (before.plan === plan) return;
      await this.organisations.setPlan(tx, organisationId, plan);
      await writeAuditEntry(tx, {
        organisationId,
        action: 'billing.plan_changed',
        actor,
        target: { type: 'organisation', id: organisationId, name: before.name },
        metadata: { from: before.plan, to: plan },
        ipAddress: ip,
      });
    });
    // Cached keys carry the plan: every instance drops this organisation's entries. Answer once
    // every instance has, so none serves the old plan afterwards.
    await this.bus.publish(AUTH_CHANNEL, `org:${organisationId}`);
    await this.bus.sync();
    return this.get(organisationId);
  }
}
