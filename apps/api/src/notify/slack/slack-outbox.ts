import type { Statement } from '../../database/combined-statement';
import type { Queryable } from '../../database/query-rows.util';
import type { OutboxCause, OutboxEvent, OutboxListener } from '../../webhooks/webhook-outbox';
import { interruptsOf, toNotice } from '../notification-outbox';

/**
 * A new Slack message, where the organisation's connection posts this interrupt: every one, or
 * those assigned to its team; and, where the connection names a least risk, those whose risk is
 * at least that one or unknown (null: no classifier, or it did not answer — SPEC §8h). A message
 * that exists already is touched as by `TOUCH`.
 */
const POST = `
INSERT INTO slack_messages (organisation_id, interrupt_id, channel_id, data, status, due_at)
SELECT c.organisation_id, $2::uuid, c.channel_id, $3::jsonb, 'pending', now()
  FROM slack_connections c
 WHERE c.organisation_id = $1 AND (c.team_id IS NULL OR c.team_id = $4::uuid)
   AND (c.min_risk IS NULL OR $5::text IS NULL
        OR array_position(ARRAY['low', 'medium', 'high', 'critical'], $5::text)
           >= array_position(ARRAY['low', 'medium', 'high', 'critical'], c.min_risk))
ON CONFLICT (organisation_id, interrupt_id) DO UPDATE
   SET data = excluded.data, version = slack_messages.version + 1,
       status = CASE WHEN slack_messages.status = 'sending' THEN 'sending' ELSE 'pending' END,
       due_at = CASE WHEN slack_messages.status = 'sending' THEN slack_messages.due_at ELSE now() END,
       attempt_count = CASE WHEN slack_messages.status = 'sending' THEN slack_messages.attempt_count ELSE 0 END,
       updated_at = now()`;

/**
 * The interrupt changed: its message (if it has one) is to show it as it now is. A message being
 * sent keeps its claim (the worker sees the higher version when it records, and edits again).
 */
const TOUCH = `
UPDATE slack_messages
   SET data = $3::jsonb, version = version + 1,
       status = CASE WHEN status = 'sending' THEN 'sending' ELSE 'pending' END,
       due_at = CASE WHEN status = 'sending' THEN due_at ELSE now() END,
       attempt_count = CASE WHEN status = 'sending' THEN attempt_count ELSE 0 END,
       updated_at = now()
 WHERE organisation_id = $1 AND interrupt_id = $2`;

/**
 * Slack's side of the outbox (issue 30 §4): it hears every interrupt event in the transaction of
 * its change, like the notification outbox, and keeps one row per posted interrupt — created
 * when an open interrupt is opened (or assigned to the connection's team), and given the
 * interrupt's new state by every later event (decided on the web, by email, in Slack, by argus,
 * expired, withdrawn, assigned, escalated), so the worker edits the message after the commit.
 */
export class SlackOutbox implements OutboxListener {
  async write(
    tx: Queryable,
    organisationId: string,
    events: readonly OutboxEvent[],
    cause: OutboxCause = {},
  ): Promise<void> {
    for (const statement of this.statements(organisationId, events, cause))
      await tx.query(statement.text, [...statement.values]);
  }

  /** Its statements need no answer; they may run at once unless two are of one interrupt's message. */
  async statementsFor(
    organisationId: string,
    events: readonly OutboxEvent[],
    cause: OutboxCause,
  ): Promise<readonly Statement[] | undefined> {
    const statements = this.statements(organisationId, events, cause);
    const interrupts = new Set(statements.map((statement) => statement.values[1]));
    return interrupts.size === statements.length ? statements : undefined;
  }

  private statements(
    organisationId: string,
    events: readonly OutboxEvent[],
    cause: OutboxCause,
  ): Statement[] {
    const statements: Statement[] = [];
    // A new interrupt is posted as argus left it in the same write (or not at all, if argus
    // decided it): its later events there are part of its creation.
    const { latest, createdHere } = interruptsOf(events);
    for (const event of events) {
      // A reminder changes nothing the message shows.
      if (!latest.has(event.subjectId) || event.type === 'interrupt.reminder') continue;
      if (event.type !== 'interrupt.created' && createdHere.has(event.subjectId)) continue;
      const interrupt =
        event.type === 'interrupt.created'
          ? (latest.get(event.subjectId) as typeof event.data)
          : (event as Extract<OutboxEvent, { type: 'interrupt.assigned' }>).data;
      const notice = JSON.stringify(toNotice(interrupt, cause));
      const mayPost =
        interrupt.status === 'open' &&
        (event.type === 'interrupt.created' ||
          event.type === 'interrupt.assigned' ||
          event.type === 'interrupt.escalated');
      if (mayPost) {
        const team = interrupt.assignee?.type === 'team' ? interrupt.assignee.id : null;
        statements.push({
          text: POST,
          values: [organisationId, interrupt.id, notice, team, interrupt.risk ?? null],
        });
      } else {
        statements.push({ text: TOUCH, values: [organisationId, interrupt.id, notice] });
      }
    }
    return statements;
  }
}
