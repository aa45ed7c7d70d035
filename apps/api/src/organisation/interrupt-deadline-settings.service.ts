import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { writeAuditEntry } from '@interlock/audit';
import {
  DomainError,
  type InterruptDeadlineSettings,
  MAX_TIMEOUT_SECONDS,
} from '@interlock/domain';
import { DeadlineSettingsCache } from './deadline-settings-cache';
import { type DeadlineSettingsRow, OrganisationsRepository } from './organisations.repository';
import type { MemberCall } from '../auth/caller';

function toSettings(row: DeadlineSettingsRow): InterruptDeadlineSettings {
  return {
    defaultTimeoutSeconds: row.interrupt_timeout_default_seconds,
    maxTimeoutSeconds: row.interrupt_timeout_max_seconds ?? MAX_TIMEOUT_SECONDS,
    approveOnTimeoutAllowed: row.interrupt_timeout_approve_allowed,
  };
}

/**
 * Settings → Deadlines (SPEC §8e): the organisation's bounds on interrupt deadlines. They apply
 * when an interrupt opens or a member extends its deadline; a lowered maximum leaves deadlines
 * already set as they are. Changes are audited, field by field; one that changes nothing writes
 * nothing. A change answers once every instance has dropped the settings it kept
 * (`DeadlineSettingsCache`), so every interrupt opened afterwards, through any instance, obeys it.
 */
@Injectable()
export class InterruptDeadlineSettingsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly organisations: OrganisationsRepository,
    private readonly cache: DeadlineSettingsCache,
  ) {}

  async get(organisationId: string): Promise<InterruptDeadlineSettings> {
    const row = await this.organisations.deadlineSettings(this.dataSource, organisationId);
    if (row === undefined) throw DomainError.of('NOT_FOUND');
    return toSettings(row);
  }

  async update(
    { organisationId, actor, ip }: MemberCall,
    change: Partial<InterruptDeadlineSettings>,
  ): Promise<InterruptDeadlineSettings> {
    let changed = false;
    const settings = await this.dataSource.transaction(async (tx) => {
      const row = await this.organisations.deadlineSettings(
        tx,
        organisationId,
        'FOR NO KEY UPDATE',
      );
      if (row === undefined) throw DomainError.of('NOT_FOUND');
      const before = toSettings(row);
      const after: InterruptDeadlineSettings = {
        defaultTimeoutSeconds:
          change.defaultTimeoutSeconds === undefined
            ? before.defaultTimeoutSeconds
            : change.defaultTimeoutSeconds,
        maxTimeoutSeconds: change.maxTimeoutSeconds ?? before.maxTimeoutSeconds,
        approveOnTimeoutAllowed: change.approveOnTimeoutAllowed ?? before.approveOnTimeoutAllowed,
      };
      if (
        after.defaultTimeoutSeconds !== null &&
        after.defaultTimeoutSeconds > after.maxTimeoutSeconds
      ) {
        throw new DomainError(
          'VALIDATION_FAILED',
          `defaultTimeoutSeconds: must be at most maxTimeoutSeconds (${after.maxTimeoutSeconds})`,
        );
      }
      const changes: {
        [K in keyof InterruptDeadlineSettings]?: {
          from: InterruptDeadlineSettings[K];
          to: InterruptDeadlineSettings[K];
        };
      } = {};
      if (after.defaultTimeoutSeconds !== before.defaultTimeoutSeconds) {
        changes.defaultTimeoutSeconds = {
          from: before.defaultTimeoutSeconds,
          to: after.defaultTimeoutSeconds,
        };
      }
      if (after.maxTimeoutSeconds !== before.maxTimeoutSeconds)
        changes.maxTimeoutSeconds = { from: before.maxTimeoutSeconds, to: after.maxTimeoutSeconds };
      if (after.approveOnTimeoutAllowed !== before.approveOnTimeoutAllowed) {
        changes.approveOnTimeoutAllowed = {
          from: before.approveOnTimeoutAllowed,
          to: after.approveOnTimeoutAllowed,
        };
      }
      if (Object.keys(changes).length === 0) return before;
      await this.organisations.setDeadlineSettings(tx, organisationId, {
        interrupt_timeout_default_seconds: after.defaultTimeoutSeconds,
        interrupt_timeout_max_seconds: after.maxTimeoutSeconds,
        interrupt_timeout_approve_allowed: after.approveOnTimeoutAllowed,
      });
      await writeAuditEntry(tx, {
        organisationId,
        action: 'settings.interrupt_deadlines_updated',
        actor,
        target: { type: 'organisation', id: organisationId, name: row.name },
        metadata: { changes },
        ipAddress: ip,
      });
      changed = true;
      return after;
    });
    if (changed) await this.cache.changed(organisationId);
    return settings;
  }
}
