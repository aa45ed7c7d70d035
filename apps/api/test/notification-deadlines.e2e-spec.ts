import { DataSource } from 'typeorm';
import { InterruptsRepository } from '../src/interrupts/interrupts.repository';
import { DeadlineWarningJob } from '../src/notify/deadline-warning.job';
import { NotificationOutbox } from '../src/notify/notification-outbox';
import { JoinedMember, SignedUpOwner } from './support/factories';
import { notificationSuite } from './support/notification-suite';
import { SmtpSink } from './support/smtp-sink';
import { TestApp } from './support/test-app';

/** Long enough for a loaded machine; every wait ends as soon as its condition holds. */
const WAIT_MS = 60_000;
const MINUTE = 60_000;

// Issue 30 §1, SPEC §8h: an open interrupt with a deadline warns the people it waits on once,
// when the time left first falls to max(1 min, min(60 min, 20 % of its whole time)) — by email
// through a real SMTP server. The warning job runs here with an injected clock (never a sleep);
// the app's own job, on the real clock, finds nothing due for these hour-long deadlines.
describe('the deadline-coming warning (interrupt.deadline_approaching)', () => {
  let t: TestApp;
  let sink: SmtpSink;
  let owner: SignedUpOwner;
  let grace: JoinedMember;
  let key: string;
  const suite = notificationSuite({
    organisationName: 'Deadline Works',
    managers: ['Grace Hopper'],
  });
  const { http } = suite;
  beforeAll(() => {
    ({ t, sink, owner, key } = suite);
    grace = suite.managers['Grace Hopper'];
  });

  /** The warning job's run at `at` (the job the app schedules, with the clock injected). */
  const warnAt = (at: Date) =>
    new DeadlineWarningJob(
      t.app.get(DataSource),
      t.app.get(InterruptsRepository),
      t.app.get(NotificationOutbox),
      () => undefined,
      () => at,
    ).run();

  const open = async (title: string, extra: Record<string, unknown> = {}) => {
    const res = await http()
      .post('/api/interrupts')
      .set('x-api-key', key)
      .send({ title, actionRequests: [{ name: 'deploy', args: { to: 'prod' } }], ...extra });
    expect(res.status).toBe(201);
    return {
      id: res.body.id as string,
      createdAt: new Date(res.body.createdAt as string),
      expiresAt: new Date(res.body.expiresAt as string),
      deadline: res.body.expiresAt as string | null,
    };
  };
  /** Who was warned of `id`, one entry per warning (written with the mark: final once the job returned). */
  const warned = async (id: string) =>
    (
      (await t.app.get(DataSource).query(
        `SELECT recipient_user_id FROM notifications
          WHERE organisation_id = $1 AND subject_id = $2 AND kind = 'interrupt.deadline_approaching'
          ORDER BY recipient_user_id`,
        [owner.organisationId, id],
      )) as { recipient_user_id: string }[]
    ).map((r) => r.recipient_user_id);
  const sorted = (...ids: string[]) => [...ids].sort();
  const untilMail = (address: string, subject: string) =>
    sink.until(() => sink.withSubject(address, subject).length === 1, WAIT_MS);

  it('one hour to decide: nothing at 13 minutes left, one warning at 12 minutes left to every reader (nobody is assigned), never a second', async () => {
    const title = 'Rotate the signing keys';
    const { id, expiresAt } = await open(title, { timeoutSeconds: 3600 });
    const before = (ms: number) => new Date(expiresAt.getTime() - ms);

    await warnAt(before(13 * MINUTE));
    expect(await warned(id)).toEqual([]);

    // 20 % of an hour is 12 minutes: due from then on.
    expect(await warnAt(before(12 * MINUTE - 1000))).toBeGreaterThanOrEqual(1);
    expect(await warned(id)).toEqual(sorted(owner.memberId, grace.memberId));

    const subject = `[Deadline Works] Deadline in 12 minutes: ${title}`;
    await untilMail(owner.email, subject);
    await untilMail(grace.email, subject);
    const mail = sink.withSubject(grace.email, subject)[0];
    expect(mail.parsed.text).toContain(
      'Deadline in 12 minutes — at the deadline it will be rejected',
    );
    expect(String(mail.parsed.html)).toContain(
      'Deadline in 12 minutes — at the deadline it will be rejected',
    );
    expect(mail.parsed.text).toContain(`/interrupts/${id}`);

    // Later runs, nearer the deadline, do not warn again.
    await warnAt(before(5 * MINUTE));
    await warnAt(before(30_000));
    expect(await warned(id)).toEqual(sorted(owner.memberId, grace.memberId));
  });

  it('assigned: only the assignee is warned; an escalate deadline says it will escalate', async () => {
    const title = 'Scale the cluster down';
    const { id, expiresAt } = await open(title, { timeoutSeconds: 3600, onTimeout: 'escalate' });
    const assigned = await http()
      .post(`/api/interrupts/${id}/assign`)
      .set('cookie', owner.cookie)
      .send({ memberId: grace.memberId });
    expect(assigned.status).toBe(200);

    await warnAt(new Date(expiresAt.getTime() - 10 * MINUTE + 1000));
    expect(await warned(id)).toEqual([grace.memberId]);
    const subject = `[Deadline Works] Deadline in 10 minutes: ${title}`;
    await untilMail(grace.email, subject);
    expect(sink.withSubject(grace.email, subject)[0].parsed.text).toContain(
      'at the deadline it will be escalated',
    );
    expect(sink.withSubject(owner.email, subject)).toEqual([]);
  });

  it('no warning for an interrupt without a deadline, one answered or one withdrawn; a member who turned the emails off is not warned', async () => {
    const off = await http()
      .put('/api/notifications/preferences')
      .set('cookie', grace.cookie)
      .send({ preferences: { 'interrupt.deadline_approaching': { email: 'off' } } });
    expect(off.status).toBe(200);
    const settings = await http().get('/api/notifications/preferences').set('cookie', grace.cookie);
    expect(settings.body.effective['interrupt.deadline_approaching']).toEqual({
      email: 'off',
      browser: 'off',
    });

    const none = await open('No deadline');
    expect(none.deadline).toBeNull();
    const answered = await open('Answered in time', { timeoutSeconds: 3600 });
    const decided = await http()
      .post(`/api/interrupts/${answered.id}/decisions`)
      .set('cookie', owner.cookie)
      .send({ actionName: 'deploy', decision: 'approve' });
    expect(decided.status).toBe(201);
    const withdrawn = await open('Withdrawn in time', { timeoutSeconds: 3600 });
    const cancelled = await http()
      .post(`/api/interrupts/${withdrawn.id}/cancel`)
      .set('x-api-key', key)
      .send({});
    expect(cancelled.status).toBe(200);
    const control = await open('Still waiting', { timeoutSeconds: 3600 });

    // A minute before the control's deadline: due for all of them, were they open with a deadline.
    await warnAt(new Date(control.expiresAt.getTime() - MINUTE));
    expect(await warned(control.id)).toEqual([owner.memberId]);
    expect(await warned(none.id)).toEqual([]);
    expect(await warned(answered.id)).toEqual([]);
    expect(await warned(withdrawn.id)).toEqual([]);
  });

  it('a moved deadline is warned of once more, by its own measure', async () => {
    const { id, createdAt, expiresAt } = await open('Extend me', { timeoutSeconds: 600 });
    // Ada holds it: she alone is warned, whatever others chose.
    const assigned = await http()
      .post(`/api/interrupts/${id}/assign`)
      .set('cookie', owner.cookie)
      .send({ memberId: owner.memberId });
    expect(assigned.status).toBe(200);
    // 10 minutes: 2 minutes before.
    await warnAt(new Date(expiresAt.getTime() - 2 * MINUTE - 1000));
    expect(await warned(id)).toEqual([]);
    await warnAt(new Date(expiresAt.getTime() - 2 * MINUTE + 1000));
    expect(await warned(id)).toEqual([owner.memberId]);

    const extended = await http()
      .post(`/api/interrupts/${id}/extend`)
      .set('cookie', owner.cookie)
      .send({ timeoutSeconds: 7200 });
    expect(extended.status).toBe(200);
    const to = new Date(extended.body.expiresAt as string);
    // 20 % of the time from its opening to the new deadline (a little over 2 hours): ~24 minutes.
    const lead = 0.2 * (to.getTime() - createdAt.getTime());
    await warnAt(new Date(to.getTime() - lead - 30_000));
    expect(await warned(id)).toEqual([owner.memberId]);
    await warnAt(new Date(to.getTime() - lead + 30_000));
    expect(await warned(id)).toEqual([owner.memberId, owner.memberId]);
  });
});
