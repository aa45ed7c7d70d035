import request from 'supertest';
import { DataSource, type EntityManager } from 'typeorm';
import { PreparedReads } from '../src/database/prepared-reads';
import { organisationWithKey, type OrganisationWithKey } from './support/factories';
import { SlackStandIn } from './support/slack-stand-in';
import { startTestApp, TestApp } from './support/test-app';

// Issue 28: what one POST /api/interrupts asks of Postgres inside its transaction — the interrupt;
// one statement for the month's count, the audit entry, its record and every outbox row of its one
// event (the webhook delivery, the members' notifications, the Slack message of its connection).
// The organisation's deadline settings come from memory once read.
const BOT_TOKEN = 'xoxb-1111-2222-roundtripstoken';
const CHANNEL = 'C0ROUNDTRIPS';
/** The Slack workspace the organisation connects (its stand-in answers as this one). */
const WORKSPACE = { teamId: 'T0RT', teamName: 'Round trips', botUserId: 'U0BOT', token: BOT_TOKEN };

describe('the statements of one POST /api/interrupts (real Postgres)', () => {
  let t: TestApp;
  /** Slack as the service's connection reaches it: the organisation's messages get rows. */
  let slack: SlackStandIn;
  let org: OrganisationWithKey;
  /** The statements of the transactions begun since the last call, in order. */
  let statements: string[] = [];
  const http = () => request(t.app.getHttpServer());
  const open = async (body: Record<string, unknown> = {}) => {
    statements = [];
    const res = await http()
      .post('/api/interrupts')
      .set('x-api-key', org.key)
      .send({ title: 'Refund order', actionRequests: [{ name: 'refund' }], ...body });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const rowsOf = async (table: string, column: string, id: string) =>
    (
      (await t.app
        .get(DataSource)
        .query(`SELECT count(*)::int AS n FROM ${table} WHERE ${column} = $1`, [id])) as {
        n: number;
      }[]
    )[0].n;

  beforeAll(async () => {
    slack = new SlackStandIn(WORKSPACE);
    await slack.start();
    t = await startTestApp({ env: { SLACK_API_URL: slack.url } });
    org = await organisationWithKey(t.app.getHttpServer(), 'Round trips');
    const connected = await http()
      .put('/api/notifications/slack')
      .set('cookie', org.owner.cookie)
      .send({
        botToken: BOT_TOKEN,
        signingSecret: '0f1e2d3c4b5a69788796a5b4c3d2e1f0',
        channelId: CHANNEL,
      });
    expect(connected.status).toBe(200);
    const hook = await http()
      .post('/api/webhooks')
      .set('cookie', org.owner.cookie)
      .send({ url: 'https://example.test/hook', eventTypes: null });
    expect(hook.status).toBe(201);
    const reads = t.app.get(PreparedReads);
    const within = reads.within.bind(reads);
    jest.spyOn(reads, 'within').mockImplementation((tx: EntityManager) => {
      const queries = within(tx);
      return {
        query: (sql: string, params?: unknown[]) => {
          statements.push(sql.trim());
          return queries.query(sql, params);
        },
      } as ReturnType<PreparedReads['within']>;
    });
  });
  afterAll(async () => {
    await t.close();
    await slack.stop();
  });

  it('two statements: the interrupt, then its count, audit entry, record and the outbox rows of the one event in one; the settings not read again', async () => {
    await open();
    const id = await open();
    const outbox = statements.filter((s) => s.includes('INSERT INTO webhook_deliveries'));
    expect(outbox).toHaveLength(1);
    for (const write of [
      'UPDATE interrupts SET record_json',
      'INSERT INTO notifications',
      'INSERT INTO slack_messages',
      'INSERT INTO audit_log_entries',
      'INSERT INTO usage_months',
    ])
      expect(outbox[0]).toContain(write);
    expect(
      statements.filter((s) => /slack_messages|audit_log_entries|usage_months/.test(s)),
    ).toEqual(outbox);
    expect(statements.some((s) => s.includes('interrupt_timeout_default_seconds'))).toBe(false);
    expect(statements).toHaveLength(2);
    // The rows it wrote: the record (as the read answers it), the webhook's delivery, the owner's email.
    const read = await http().get(`/api/interrupts/${id}`).set('x-api-key', org.key);
    const kept = (await t.app
      .get(DataSource)
      .query(`SELECT record_json FROM interrupts WHERE id = $1`, [id])) as {
      record_json: string | null;
    }[];
    expect(kept[0].record_json).not.toBeNull();
    expect(JSON.parse(kept[0].record_json as string)).toEqual(read.body);
    expect(await rowsOf('webhook_deliveries', 'subject_id', id)).toBe(1);
    expect(await rowsOf('notifications', 'subject_id', id)).toBe(1);
    // Its audit entry, and the month's count of both opens.
    expect(await rowsOf('audit_log_entries', 'target_id', id)).toBe(1);
    const month = (await t.app
      .get(DataSource)
      .query(`SELECT messages FROM usage_months WHERE organisation_id = $1`, [
        org.owner.organisationId,
      ])) as {
      messages: number;
    }[];
    expect(month).toEqual([{ messages: 2 }]);
    // The Slack message, written by that statement (no other names slack_messages), to the
    // connection's channel.
    const messages = (await t.app
      .get(DataSource)
      .query(`SELECT channel_id FROM slack_messages WHERE interrupt_id = $1`, [id])) as {
      channel_id: string;
    }[];
    expect(messages).toEqual([{ channel_id: CHANNEL }]);
  });

  it("an interrupt assigned as it opens: the assignee's notification is read before the readers' (one statement each)", async () => {
    const id = await open({ assignTo: { memberId: org.owner.memberId } });
    expect(statements.filter((s) => s.includes('INSERT INTO notifications'))).toHaveLength(2);
    expect(statements.filter((s) => s.includes('UPDATE interrupts SET record_json'))).toHaveLength(
      1,
    );
    expect(statements.filter((s) => s.includes('INSERT INTO webhook_deliveries'))).toHaveLength(2);
    // The owner, its assignee, is told once (assigned), not again as a reader.
    expect(await rowsOf('notifications', 'subject_id', id)).toBe(1);
  });
});
