import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createDataSource } from '../src/database/data-source';
import { readNotificationOutboxStats } from '../src/notify/notification-outbox-stats-query.util';
import { readOutboxStats } from '../src/webhooks/webhook-outbox-stats-query.util';
import { createMigratedTestDatabase } from './support/migrated-database';
import { TestDatabase } from './support/test-database';

// The outboxes' depth and oldest-due gauges (README "Metrics") read these two statements on every
// scrape: each state counted once, finished rows left out, the oldest due age from the due rows only.
describe('the outbox gauges on Postgres', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const org = randomUUID();
  const webhook = randomUUID();

  beforeAll(async () => {
    db = await createMigratedTestDatabase();
    ds = createDataSource({ url: db.url, poolSize: 2 });
    await ds.initialize();
    await ds.query(`INSERT INTO organisations (id, name) VALUES ($1, 'Acme')`, [org]);
    await ds.query(
      `INSERT INTO webhooks (organisation_id, id, url, secret, created_by)
       VALUES ($1, $2, 'https://example.com/hook', '\\x00', $1)`,
      [org, webhook],
    );
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  /** A delivery in `status`, due `dueSeconds` from now (null: no due time). */
  async function delivery(status: string, dueSeconds: number | null): Promise<void> {
    const event = randomUUID();
    await ds.query(
      `INSERT INTO webhook_events (organisation_id, id, type, subject_id, body) VALUES ($1, $2, 'webhook.test', $1, '{}')`,
      [org, event],
    );
    await ds.query(
      `INSERT INTO webhook_deliveries (organisation_id, id, webhook_id, event_id, event_type, subject_id, status, due_at, max_attempts)
       VALUES ($1, $2, $3, $4, 'webhook.test', $1, $5, now() + make_interval(secs => $6), 8)`,
      [org, randomUUID(), webhook, event, status, dueSeconds],
    );
  }

  async function notification(status: string, dueSeconds: number | null): Promise<void> {
    await ds.query(
      `INSERT INTO notifications (organisation_id, id, recipient_email, recipient_key, kind, mode, data, batch_key, status, due_at, scheduled_for, max_attempts)
       VALUES ($1, $2, 'ada@example.com', 'ada@example.com', 'interrupt.opened', 'immediately', '{}', 'ada', $3,
               now() + make_interval(secs => $4), now(), 5)`,
      [org, randomUUID(), status, dueSeconds],
    );
  }

  it('reads nothing from empty outboxes', async () => {
    expect(await readOutboxStats(ds)).toEqual({
      due: 0,
      scheduled: 0,
      delivering: 0,
      paused: 0,
      oldest_due_seconds: 0,
    });
    expect(await readNotificationOutboxStats(ds)).toEqual({
      due: 0,
      scheduled: 0,
      sending: 0,
      oldest_due_seconds: 0,
    });
  });

  it("counts each webhook delivery's state once, and the oldest due age from the due ones", async () => {
    await delivery('pending', -120);
    await delivery('pending', -10);
    await delivery('pending', 3600);
    await delivery('pending', null);
    await delivery('delivering', 30);
    await delivery('succeeded', -600);
    await delivery('failed', -900);
    const stats = await readOutboxStats(ds);
    expect(stats).toMatchObject({ due: 2, scheduled: 1, delivering: 1, paused: 1 });
    expect(stats.oldest_due_seconds).toBeGreaterThanOrEqual(120);
    expect(stats.oldest_due_seconds).toBeLessThan(180);
  });

  it("counts each notification's state once, and the oldest due age from the due ones", async () => {
    await notification('pending', -60);
    await notification('pending', -5);
    await notification('pending', 1800);
    await notification('sending', 60);
    await notification('sent', -600);
    await notification('failed', -900);
    const stats = await readNotificationOutboxStats(ds);
    expect(stats).toMatchObject({ due: 2, scheduled: 1, sending: 1 });
    expect(stats).not.toHaveProperty('paused');
    expect(stats.oldest_due_seconds).toBeGreaterThanOrEqual(60);
    expect(stats.oldest_due_seconds).toBeLessThan(120);
  });
});
