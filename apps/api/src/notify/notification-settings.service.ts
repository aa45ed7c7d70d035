import { Inject, Injectable } from '@nestjs/common';
import { KeysetCursorCodec, keysetPage } from '@interlock/cursor';
import { DataSource } from 'typeorm';
import { writeAuditEntry } from '@interlock/audit';
import {
  BUILT_IN_NOTIFICATION_DEFAULTS,
  DomainError,
  effectiveNotificationPreferences,
  type NotificationPreferences,
} from '@interlock/domain';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { Mailer } from '../mail/mailer';
import { OrganisationsRepository } from '../organisation/organisations.repository';
import type {
  NotificationPreferencesResponse,
  NotificationSettingsResponse,
} from './dto/notification-preferences.dto';
import type { NotificationDeliveryResponse } from './dto/notification-delivery.response';
import type {
  UpdateNotificationPreferencesCommand,
  UpdateNotificationSettingsCommand,
} from './notification-settings.command';
import { type DeliveryRow, NotificationsRepository } from './notifications.repository';

const DELIVERY_PAGE = 50;

/** Drops the nulls (a null asks for the default) and the kinds left empty. */
function compact(preferences: NotificationPreferences): NotificationPreferences {
  const out: NotificationPreferences = {};
  for (const [kind, channels] of Object.entries(preferences) as [
    keyof NotificationPreferences,
    Record<string, string | null>,
  ][]) {
    const kept = Object.fromEntries(Object.entries(channels).filter(([, mode]) => mode !== null));
    if (Object.keys(kept).length > 0) out[kind] = kept as NotificationPreferences[typeof kind];
  }
  return out;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Notification preferences (issue 30): each member's own per kind and channel, with a time zone
 * for the daily digest, over the organisation's defaults (member.manage), over the built-in
 * ones. Every change writes its audit entry (category settings) in its transaction.
 */
@Injectable()
export class NotificationSettingsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly repository: NotificationsRepository,
    private readonly mailer: Mailer,
    private readonly organisations: OrganisationsRepository,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.cursors = new KeysetCursorCodec(config.cursorSecret, 'notifications.deliveries');
  }

  private readonly cursors: KeysetCursorCodec;

  async preferences(
    organisationId: string,
    userId: string,
  ): Promise<NotificationPreferencesResponse> {
    const [member, organisation] = await Promise.all([
      this.repository.memberSettings(this.dataSource, organisationId, userId),
      this.repository.organisationSettings(this.dataSource, organisationId),
    ]);
    return this.preferencesResponse(
      member?.preferences ?? {},
      member?.time_zone ?? 'UTC',
      organisation?.defaults ?? {},
    );
  }

  async updatePreferences({
    organisationId,
    actor,
    changes: body,
    ip,
  }: UpdateNotificationPreferencesCommand): Promise<NotificationPreferencesResponse> {
    return this.dataSource.transaction(async (tx) => {
      if (body.timeZone !== undefined && !(await this.repository.isTimeZone(tx, body.timeZone))) {
        throw new DomainError(
          'VALIDATION_FAILED',
          'timeZone must be an IANA time zone name such as Europe/Paris or UTC.',
        );
      }
      const before = (await this.repository.memberSettings(tx, organisationId, actor.id, true)) ?? {
        preferences: {},
        time_zone: 'UTC',
      };
      const after = {
        preferences:
          body.preferences === undefined ? before.preferences : compact(body.preferences),
        time_zone: body.timeZone ?? before.time_zone,
      };
      const changes: {
        timeZone?: { from: string; to: string };
        preferences?: { from: NotificationPreferences; to: NotificationPreferences };
      } = {};
      if (after.time_zone !== before.time_zone)
        changes.timeZone = { from: before.time_zone, to: after.time_zone };
      if (!same(after.preferences, before.preferences))
        changes.preferences = { from: before.preferences, to: after.preferences };
      if (Object.keys(changes).length > 0) {
        await this.repository.saveMemberSettings(tx, organisationId, actor.id, after);
        await writeAuditEntry(tx, {
          organisationId,
          action: 'settings.notification_preferences_updated',
          actor,
          target: { type: 'user', id: actor.id, name: actor.name },
          metadata: { changes },
          ipAddress: ip,
        });
      }
      const organisation = await this.repository.organisationSettings(tx, organisationId);
      return this.preferencesResponse(
        after.preferences,
        after.time_zone,
        organisation?.defaults ?? {},
      );
    });
  }

  async settings(organisationId: string): Promise<NotificationSettingsResponse> {
    const row = await this.repository.organisationSettings(this.dataSource, organisationId);
    return this.settingsResponse(row?.defaults ?? {}, row?.token_actions ?? false);
  }

  async updateSettings({
    organisationId,
    actor,
    changes: body,
    ip,
  }: UpdateNotificationSettingsCommand): Promise<NotificationSettingsResponse> {
    return this.dataSource.transaction(async (tx) => {
      const organisation = await this.organisations.read(tx, organisationId);
      if (organisation === undefined) throw DomainError.of('NOT_FOUND');
      const before = (await this.repository.organisationSettings(tx, organisationId, true)) ?? {
        defaults: {},
        token_actions: false,
      };
      const after = {
        defaults: body.defaults === undefined ? before.defaults : compact(body.defaults),
        token_actions: body.tokenActions ?? before.token_actions,
      };
      const changes: {
        defaults?: { from: NotificationPreferences; to: NotificationPreferences };
        tokenActions?: { from: boolean; to: boolean };
      } = {};
      if (!same(after.defaults, before.defaults))
        changes.defaults = { from: before.defaults, to: after.defaults };
      if (after.token_actions !== before.token_actions)
        changes.tokenActions = { from: before.token_actions, to: after.token_actions };
      if (Object.keys(changes).length > 0) {
        await this.repository.saveOrganisationSettings(tx, organisationId, after);
        await writeAuditEntry(tx, {
          organisationId,
          action: 'settings.notifications_updated',
          actor,
          target: { type: 'organisation', id: organisationId, name: organisation.name },
          metadata: { changes },
          ipAddress: ip,
        });
      }
      return this.settingsResponse(after.defaults, after.token_actions);
    });
  }

  /** Newest first, a keyset page at a time (the cursor is bound to the organisation and the scope). */
  async deliveries(
    organisationId: string,
    userId: string | null,
    page: { cursor?: string; limit?: number },
  ): Promise<{ deliveries: NotificationDeliveryResponse[]; nextCursor: string | null }> {
    const { rows, nextCursor } = await keysetPage<DeliveryRow>(
      this.cursors,
      {
        organisationId,
        filters: JSON.stringify([organisationId, userId]),
        cursor: page.cursor,
        limit: page.limit ?? DELIVERY_PAGE,
      },
      (row) => row.created_at,
      (after, take) =>
        this.repository.deliveries(this.dataSource, organisationId, userId, after, take),
    );
    const deliveries = rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      channel: r.channel,
      mode: r.mode,
      status: r.status,
      recipientEmail: r.recipient_email,
      subjectId: r.subject_id,
      title: r.title,
      attempts: r.attempt_count,
      lastError: r.last_error,
      createdAt: r.created_at.toISOString(),
      scheduledFor: r.scheduled_for.toISOString(),
      sentAt: r.sent_at?.toISOString() ?? null,
    }));
    return { deliveries, nextCursor };
  }

  private preferencesResponse(
    own: NotificationPreferences,
    timeZone: string,
    defaults: NotificationPreferences,
  ): NotificationPreferencesResponse {
    return {
      timeZone,
      preferences: own,
      effective: effectiveNotificationPreferences(own, defaults),
      emailEnabled: this.mailer.enabled,
    };
  }

  private settingsResponse(
    defaults: NotificationPreferences,
    tokenActions: boolean,
  ): NotificationSettingsResponse {
    return {
      defaults,
      builtInDefaults: BUILT_IN_NOTIFICATION_DEFAULTS,
      tokenActions,
      emailEnabled: this.mailer.enabled,
    };
  }
}
