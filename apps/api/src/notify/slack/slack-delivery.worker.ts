import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import type { NotificationConfig } from '../../config/app-config';
import { queryRows } from '../../database/query-rows.util';
import type { JobWorker } from '../../jobs/job-runner';
import { leaseClaimStatement } from '../../jobs/lease-claim.util';
import { retryDelayMs } from '../../webhooks/webhook-retry.util';
import type { WebhookSecretBox } from '../../webhooks/webhook-secret.util';
import type { InterruptNotice } from '../notification-outbox';
import { type SlackApi, slackErrorText } from './slack-api';
import { renderSlackMessage } from './slack-message';

interface ClaimedMessage {
  organisation_id: string;
  interrupt_id: string;
  channel_id: string;
  ts: string | null;
  data: InterruptNotice;
  version: number;
  attempt_count: number;
  bot_token: Buffer;
}

/**
 * Claims due messages as leases (`leaseClaimStatement`): `sending` while one is attempted, with
 * the connection's bot token. The row is the message's only queue entry, so no two edits of one
 * message are ever in flight at once.
 */
const CLAIM = leaseClaimStatement({
  table: 'slack_messages',
  key: ['organisation_id', 'interrupt_id'],
  leased: 'sending',
  join: { table: 'slack_connections c', on: 'c.organisation_id = r.organisation_id' },
  returning:
    'r.organisation_id, r.interrupt_id, r.channel_id, r.ts, r.data, r.version, r.attempt_count, c.bot_token',
});

/**
 * Records an attempt. A posted message's `ts` is kept whatever else happened (so it is edited,
 * never posted twice); the status is this attempt's only while its claim still holds. Sent, with
 * a newer version written meanwhile: due again at once, to edit the message to it.
 */
const RECORD = `
UPDATE slack_messages m
   SET ts = coalesce(m.ts, $3::text),
       posted_version = CASE WHEN $4::text = 'sent' THEN greatest(m.posted_version, $5::int) ELSE m.posted_version END,
       status = CASE WHEN m.status <> 'sending' OR m.attempt_count <> $6::int THEN m.status
                     WHEN $4::text = 'sent' AND m.version > $5::int THEN 'pending'
                     ELSE $4::text END,
       due_at = CASE WHEN m.status <> 'sending' OR m.attempt_count <> $6::int THEN m.due_at
                     WHEN $4::text = 'sent' AND m.version > $5::int THEN now()
                     WHEN $4::text = 'pending' THEN now() + $7::int * interval '1 millisecond'
                     END,
       attempt_count = CASE WHEN m.status = 'sending' AND m.attempt_count = $6::int AND $4::text = 'sent' THEN 0
                            ELSE m.attempt_count END,
       last_error = CASE WHEN m.status = 'sending' AND m.attempt_count = $6::int THEN $8::text ELSE m.last_error END,
       updated_at = now()
 WHERE m.organisation_id = $1 AND m.interrupt_id = $2`;

/**
 * The Slack delivery worker (issue 30 §4), one per instance on the job runner: posts each new
 * interrupt's message (`chat.postMessage`) and edits it (`chat.update`) after every change, to
 * the interrupt's latest state. Failures retry on NOTIFICATION_RETRY_SCHEDULE, then `failed`
 * (a later change of the interrupt tries again).
 */
export class SlackDeliveryWorker implements JobWorker {
  static readonly NAME = 'slack-messages';
  readonly name = SlackDeliveryWorker.NAME;
  readonly idleMs: number;
  private readonly leaseMs = 60_000;
  private readonly batch = 16;

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: NotificationConfig,
    private readonly slack: SlackApi,
    private readonly box: WebhookSecretBox,
    private readonly dashboardUrl: string,
    private readonly logger: Logger,
  ) {
    this.idleMs = config.pollMs;
  }

  async poll(): Promise<boolean> {
    const rows = await queryRows<ClaimedMessage>(this.dataSource, CLAIM, [
      this.batch,
      this.leaseMs,
    ]);
    await Promise.all(rows.map((row) => this.deliver(row)));
    return rows.length === this.batch;
  }

  private async deliver(row: ClaimedMessage): Promise<void> {
    let ts: string | null = null;
    let outcome: 'sent' | 'pending' | 'failed' = 'sent';
    let error: string | null = null;
    try {
      const token = this.box.open(row.bot_token, row.organisation_id, 'slack-bot-token');
      const client = this.slack.client(token);
      const message = renderSlackMessage(row.data, this.dashboardUrl);
      if (row.ts === null) {
        const posted = await client.chat.postMessage({
          channel: row.channel_id,
          text: message.text,
          blocks: message.blocks as never,
          unfurl_links: false,
          unfurl_media: false,
        });
        ts = typeof posted.ts === 'string' ? posted.ts : null;
        if (ts === null) throw new Error('chat.postMessage answered no ts');
      } else {
        await client.chat.update({
          channel: row.channel_id,
          ts: row.ts,
          text: message.text,
          blocks: message.blocks as never,
        });
      }
    } catch (failure) {
      error = slackErrorText(failure);
      outcome = row.attempt_count <= this.config.retryScheduleMs.length ? 'pending' : 'failed';
    }
    const delay =
      outcome === 'pending' ? retryDelayMs(this.config.retryScheduleMs, row.attempt_count) : 0;
    await this.dataSource
      .query(RECORD, [
        row.organisation_id,
        row.interrupt_id,
        ts,
        outcome,
        row.version,
        row.attempt_count,
        delay,
        error,
      ])
      .catch((failure: unknown) =>
        this.logger.error({ err: failure }, 'a Slack message attempt could not be recorded'),
      );
    this.logger.info(
      {
        organisationId: row.organisation_id,
        interruptId: row.interrupt_id,
        edit: row.ts !== null,
        outcome,
        attempt: row.attempt_count,
        ...(error === null ? {} : { error }),
      },
      'slack message attempt',
    );
  }
}
