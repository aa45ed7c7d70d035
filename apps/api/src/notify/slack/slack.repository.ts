import { Injectable } from '@nestjs/common';
import { queryRows, type Queryable } from '../../database/query-rows.util';
import type { Risk } from '../../classification/rule-engine';
import type { SlackMessageStatus } from './slack.entity';

export interface SlackConnectionRow {
  slack_team_id: string;
  slack_team_name: string;
  bot_user_id: string;
  bot_token: Buffer;
  signing_secret: Buffer;
  channel_id: string;
  team_id: string | null;
  team_name: string | null;
  min_risk: Risk | null;
  credentials_set_at: Date;
}

export interface SlackMessageRow {
  interrupt_id: string;
  title: string;
  status: SlackMessageStatus;
  posted: boolean;
  last_error: string | null;
  updated_at: Date;
}

/** `slack_connections` and `slack_messages`' reads and writes for the settings and interactions (the outbox listener and the worker write their own). */
@Injectable()
export class SlackRepository {
  async connection(
    db: Queryable,
    organisationId: string,
    lock = false,
  ): Promise<SlackConnectionRow | undefined> {
    const [row] = await queryRows<SlackConnectionRow>(
      db,
      `SELECT c.slack_team_id, c.slack_team_name, c.bot_user_id, c.bot_token, c.signing_secret, c.channel_id,
              c.team_id, t.name AS team_name, c.min_risk, c.credentials_set_at
         FROM slack_connections c
         LEFT JOIN teams t ON t.organisation_id = c.organisation_id AND t.id = c.team_id
        WHERE c.organisation_id = $1 ${lock ? 'FOR UPDATE OF c' : ''}`,
      [organisationId],
    );
    return row;
  }

  /** The messages changed last, newest first. */
  latestMessages(db: Queryable, organisationId: string, limit: number): Promise<SlackMessageRow[]> {
    return queryRows<SlackMessageRow>(
      db,
      `SELECT interrupt_id, data ->> 'title' AS title, status, ts IS NOT NULL AS posted, last_error, updated_at
         FROM slack_messages WHERE organisation_id = $1 ORDER BY updated_at DESC LIMIT $2`,
      [organisationId, limit],
    );
  }

  /** Creates or replaces the connection; answers when its credentials were set (now). */
  async saveConnection(
    tx: Queryable,
    organisationId: string,
    c: {
      slackTeamId: string;
      slackTeamName: string;
      botUserId: string;
      botToken: Buffer;
      signingSecret: Buffer;
      channelId: string;
      teamId: string | null;
      minRisk: Risk | null;
    },
  ): Promise<Date> {
    const [saved] = await queryRows<{ credentials_set_at: Date }>(
      tx,
      `INSERT INTO slack_connections (organisation_id, slack_team_id, slack_team_name, bot_user_id, bot_token, signing_secret,
                                      channel_id, team_id, min_risk, credentials_set_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, now())
       ON CONFLICT (organisation_id) DO UPDATE
          SET slack_team_id = excluded.slack_team_id, slack_team_name = excluded.slack_team_name,
              bot_user_id = excluded.bot_user_id, bot_token = excluded.bot_token,
              signing_secret = excluded.signing_secret, channel_id = excluded.channel_id,
              team_id = excluded.team_id, min_risk = excluded.min_risk, credentials_set_at = excluded.credentials_set_at, updated_at = now()
       RETURNING credentials_set_at`,
      [
        organisationId,
        c.slackTeamId,
        c.slackTeamName,
        c.botUserId,
        c.botToken,
        c.signingSecret,
        c.channelId,
        c.teamId,
        c.minRisk,
      ],
    );
    return saved.credentials_set_at;
  }

  /** Removes the connection and its message records. */
  async deleteConnection(tx: Queryable, organisationId: string): Promise<void> {
    await tx.query(`DELETE FROM slack_messages WHERE organisation_id = $1`, [organisationId]);
    await tx.query(`DELETE FROM slack_connections WHERE organisation_id = $1`, [organisationId]);
  }

  /**
   * The current member whose email is `email` (case-insensitively) and verified (SPEC §8f), if
   * any: an address somebody signed up with but never proved names nobody, so a Slack user whose
   * confirmed address it is cannot decide as that account.
   */
  async memberByEmail(
    db: Queryable,
    organisationId: string,
    email: string,
  ): Promise<string | undefined> {
    const [row] = await queryRows<{ user_id: string }>(
      db,
      `SELECT m.user_id FROM memberships m JOIN users u ON u.id = m.user_id
        WHERE m.organisation_id = $1 AND m.left_at IS NULL AND lower(u.email) = lower($2)
          AND u.email_verified_at IS NOT NULL`,
      [organisationId, email],
    );
    return row?.user_id;
  }
}
