import { Injectable } from '@nestjs/common';
import type { KeysetPosition } from '@interlock/cursor';
import type { NotificationPreferences } from '@interlock/domain';
import { hasRow, queryRows, type Queryable } from '../database/query-rows.util';
import type { NotificationStatus } from './notification.entity';

export interface MemberSettingsRow {
  preferences: NotificationPreferences;
  time_zone: string;
}

export interface OrganisationSettingsRow {
  defaults: NotificationPreferences;
  token_actions: boolean;
}

export interface DeliveryRow {
  id: string;
  kind: string;
  channel: string;
  mode: string;
  status: NotificationStatus;
  recipient_email: string;
  subject_id: string | null;
  title: string | null;
  attempt_count: number;
  last_error: string | null;
  created_at: Date;
  scheduled_for: Date;
  sent_at: Date | null;
}

/** The notification tables' SQL, beside the outbox writer and the delivery worker. */
@Injectable()
export class NotificationsRepository {
  async memberSettings(
    db: Queryable,
    organisationId: string,
    userId: string,
    lock = false,
  ): Promise<MemberSettingsRow | undefined> {
    const [row] = await queryRows<MemberSettingsRow>(
      db,
      `SELECT preferences, time_zone FROM notification_member_settings WHERE organisation_id = $1 AND user_id = $2${lock ? ' FOR UPDATE' : ''}`,
      [organisationId, userId],
    );
    return row;
  }

  async saveMemberSettings(
    db: Queryable,
    organisationId: string,
    userId: string,
    settings: MemberSettingsRow,
  ): Promise<void> {
    await db.query(
      `INSERT INTO notification_member_settings (organisation_id, user_id, preferences, time_zone) VALUES ($1, $2, $3::jsonb, $4)
       ON CONFLICT (organisation_id, user_id) DO UPDATE SET preferences = EXCLUDED.preferences, time_zone = EXCLUDED.time_zone, updated_at = now()`,
      [organisationId, userId, JSON.stringify(settings.preferences), settings.time_zone],
    );
  }

  async organisationSettings(
    db: Queryable,
    organisationId: string,
    lock: boolean | 'share' = false,
  ): Promise<OrganisationSettingsRow | undefined> {
    const [row] = await queryRows<OrganisationSettingsRow>(
      db,
      `SELECT defaults, token_actions FROM notification_settings WHERE organisation_id = $1${lock === 'share' ? ' FOR SHARE' : lock ? ' FOR UPDATE' : ''}`,
      [organisationId],
    );
    return row;
  }

  async saveOrganisationSettings(
    db: Queryable,
    organisationId: string,
    settings: OrganisationSettingsRow,
  ): Promise<void> {
    await db.query(
      `INSERT INTO notification_settings (organisation_id, defaults, token_actions) VALUES ($1, $2::jsonb, $3)
       ON CONFLICT (organisation_id) DO UPDATE SET defaults = EXCLUDED.defaults, token_actions = EXCLUDED.token_actions, updated_at = now()`,
      [organisationId, JSON.stringify(settings.defaults), settings.token_actions],
    );
  }

  /** Records an emailed action link's use; false when it was used before. */
  async recordLinkUse(
    db: Queryable,
    organisationId: string,
    use: {
      nonce: string;
      interruptId: string;
      userId: string;
      actionName: string;
      decision: string;
    },
  ): Promise<boolean> {
    const rows = await queryRows<{ nonce: string }>(
      db,
      `INSERT INTO notification_action_link_uses (organisation_id, nonce, interrupt_id, user_id, action_name, decision)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (organisation_id, nonce) DO NOTHING RETURNING nonce`,
      [organisationId, use.nonce, use.interruptId, use.userId, use.actionName, use.decision],
    );
    return rows.length === 1;
  }

  async linkUsed(db: Queryable, organisationId: string, nonce: string): Promise<boolean> {
    const rows = await queryRows<{ nonce: string }>(
      db,
      `SELECT nonce FROM notification_action_link_uses WHERE organisation_id = $1 AND nonce = $2`,
      [organisationId, nonce],
    );
    return rows.length === 1;
  }

  /** Whether Postgres knows the time zone (the digest times are computed there). */
  async isTimeZone(db: Queryable, name: string): Promise<boolean> {
    return hasRow(db, `SELECT 1 FROM pg_timezone_names WHERE name = $1`, [name]);
  }

  /** Newest first, after `after` (a keyset position): one member's (userId) or the whole organisation's (null). */
  async deliveries(
    db: Queryable,
    organisationId: string,
    userId: string | null,
    after: KeysetPosition | undefined,
    take: number,
  ): Promise<DeliveryRow[]> {
    return queryRows<DeliveryRow>(
      db,
      `SELECT id, kind, channel, mode, status, recipient_email, subject_id, data ->> 'title' AS title, attempt_count, last_error,
              created_at, scheduled_for, sent_at
         FROM notifications
        WHERE organisation_id = $1 AND ($2::uuid IS NULL OR recipient_user_id = $2::uuid)
          AND ($3::timestamptz IS NULL OR (created_at, id) < ($3::timestamptz, $4::uuid))
        ORDER BY created_at DESC, id DESC
        LIMIT $5`,
      [organisationId, userId, after?.createdAt ?? null, after?.id ?? null, take],
    );
  }
}
