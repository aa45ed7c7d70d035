import request from 'supertest';
import { DataSource } from 'typeorm';
import { InterruptLifecycleService } from '../src/interrupts/interrupt-lifecycle.service';
import { NotificationBus } from '../src/notifications/notification-bus';
import { OrganisationsRepository } from '../src/organisation/organisations.repository';
import {
  createApiKey,
  memberWithPermissions,
  signUpOwner,
  SignedUpOwner,
} from './support/factories';
import { startTestApp, TestApp } from './support/test-app';
import { waitFor } from './support/wait-for';

// SPEC §8e: Settings → Deadlines, the organisation's bounds on interrupt deadlines, and what they
// do to interrupts opened, extended and expired afterwards.
describe('interrupt deadline settings (SPEC §8e)', () => {
  let t: TestApp;
  let owner: SignedUpOwner;
  let key: string;

  const http = () => request(t.app.getHttpServer());
  const get = (cookie = owner.cookie) =>
    http().get('/api/organisation/interrupt-deadlines').set('cookie', cookie);
  const patch = (body: unknown, cookie = owner.cookie) =>
    http()
      .patch('/api/organisation/interrupt-deadlines')
      .set('cookie', cookie)
      .send(body as object);
  const open = (extra: Record<string, unknown> = {}) =>
    http()
      .post('/api/interrupts')
      .set('x-api-key', key)
      .send({ title: 'Refund order', actionRequests: [{ name: 'refund' }], ...extra });
  const settingsEntries = async () =>
    (await t.app.get(DataSource).query(
      `SELECT action, actor_type, actor_name, target_type, target_id, metadata, summary FROM audit_log_entries
          WHERE organisation_id = $1 AND action = 'settings.interrupt_deadlines_updated' ORDER BY seq`,
      [owner.organisationId],
    )) as {
      action: string;
      actor_type: string;
      actor_name: string;
      target_type: string;
      target_id: string;
      metadata: unknown;
      summary: string;
    }[];

  beforeAll(async () => {
    t = await startTestApp();
    owner = await signUpOwner(t.app.getHttpServer());
    ({ key } = await createApiKey(t.app.getHttpServer(), owner.cookie, { name: 'ci-runner' }));
  });
  afterAll(async () => {
    await t.close();
  });

  it('starts with no default deadline, the 30-day maximum and no approval at the deadline', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      defaultTimeoutSeconds: null,
      maxTimeoutSeconds: 2_592_000,
      approveOnTimeoutAllowed: false,
    });
  });

  it('changes the fields given, audited field by field; a change to nothing writes nothing', async () => {
    const res = await patch({ defaultTimeoutSeconds: 3_600, maxTimeoutSeconds: 86_400 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      defaultTimeoutSeconds: 3_600,
      maxTimeoutSeconds: 86_400,
      approveOnTimeoutAllowed: false,
    });
    expect((await get()).body).toEqual(res.body);
    const entries = await settingsEntries();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actor_type: 'member',
      actor_name: owner.name,
      target_type: 'organisation',
      target_id: owner.organisationId,
      metadata: {
        changes: {
          defaultTimeoutSeconds: { from: null, to: 3_600 },
          maxTimeoutSeconds: { from: 2_592_000, to: 86_400 },
        },
      },
      summary: `Interrupt deadline settings changed (defaultTimeoutSeconds, maxTimeoutSeconds) by ${owner.name}`,
    });

    const same = await patch({ maxTimeoutSeconds: 86_400, approveOnTimeoutAllowed: false });
    expect(same.status).toBe(200);
    expect(await settingsEntries()).toHaveLength(1);

    const cleared = await patch({ defaultTimeoutSeconds: null });
    expect(cleared.body).toEqual({
      defaultTimeoutSeconds: null,
      maxTimeoutSeconds: 86_400,
      approveOnTimeoutAllowed: false,
    });
    expect((await settingsEntries())[1].metadata).toEqual({
      changes: { defaultTimeoutSeconds: { from: 3_600, to: null } },
    });
  });

  it.each([
    [
      {},
      'body: must hold at least one of defaultTimeoutSeconds, maxTimeoutSeconds, approveOnTimeoutAllowed.',
    ],
    [{ maxTimeoutSeconds: 0 }, 'maxTimeoutSeconds must not be less than 1'],
    [{ maxTimeoutSeconds: 2_592_001 }, 'maxTimeoutSeconds must not be greater than 2592000'],
    [
      { maxTimeoutSeconds: null },
      'maxTimeoutSeconds must not be greater than 2592000; maxTimeoutSeconds must not be less than 1; maxTimeoutSeconds must be an integer number',
    ],
    [{ defaultTimeoutSeconds: 1.5 }, 'defaultTimeoutSeconds must be an integer number'],
    [{ approveOnTimeoutAllowed: 'yes' }, 'approveOnTimeoutAllowed must be a boolean value'],
    [
      { defaultTimeoutSeconds: 100_000 },
      'defaultTimeoutSeconds: must be at most maxTimeoutSeconds (86400)',
    ],
    [
      { defaultTimeoutSeconds: 600, maxTimeoutSeconds: 300 },
      'defaultTimeoutSeconds: must be at most maxTimeoutSeconds (300)',
    ],
  ])('refuses %j with 400, changing nothing', async (body, message) => {
    const before = (await get()).body;
    const entries = (await settingsEntries()).length;
    const res = await patch(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', message });
    expect((await get()).body).toEqual(before);
    expect(await settingsEntries()).toHaveLength(entries);
  });

  it('reading takes any member; changing takes classification.manage; a key is refused', async () => {
    const reader = await memberWithPermissions(t.app.getHttpServer(), owner.cookie, [
      'interrupt.read',
    ]);
    expect((await get(reader.cookie)).status).toBe(200);
    const refused = await patch({ approveOnTimeoutAllowed: true }, reader.cookie);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Missing permission: classification.manage.');
    const manager = await memberWithPermissions(
      t.app.getHttpServer(),
      owner.cookie,
      ['classification.manage'],
      'Grace Hopper',
    );
    expect((await patch({ maxTimeoutSeconds: 86_400 }, manager.cookie)).status).toBe(200);
    const withKey = await http().get('/api/organisation/interrupt-deadlines').set('x-api-key', key);
    expect(withKey.status).toBe(403);
    expect(withKey.body.message).toBe('This endpoint is reserved for humans.');
  });

  it('bounds what agents and members set afterwards', async () => {
    await patch({
      defaultTimeoutSeconds: 600,
      maxTimeoutSeconds: 7_200,
      approveOnTimeoutAllowed: false,
    });
    const defaulted = await open();
    expect(Date.parse(defaulted.body.expiresAt) - Date.parse(defaulted.body.createdAt)).toBe(
      600_000,
    );
    const tooLong = await open({ timeoutSeconds: 7_201 });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.message).toBe(
      "timeoutSeconds: must be at most 7200 (this organisation's maximum)",
    );
    const extended = await http()
      .post(`/api/interrupts/${defaulted.body.id}/extend`)
      .set('cookie', owner.cookie)
      .send({ timeoutSeconds: 7_201 });
    expect(extended.status).toBe(400);
    expect(extended.body.message).toBe(
      "timeoutSeconds: must be at most 7200 (this organisation's maximum)",
    );
    expect((await open({ timeoutSeconds: 60, onTimeout: 'approve' })).status).toBe(400);
    await patch({ approveOnTimeoutAllowed: true });
    expect((await open({ timeoutSeconds: 60, onTimeout: 'approve' })).status).toBe(201);
  });

  it('turning approval at the deadline off rejects the interrupts already waiting for it', async () => {
    await patch({ approveOnTimeoutAllowed: true });
    const approving = (await open({ timeoutSeconds: 60, onTimeout: 'approve' })).body;
    expect(approving.onTimeout).toBe('approve');
    await patch({ approveOnTimeoutAllowed: false });
    const lifecycle = t.app.get(InterruptLifecycleService);
    expect(
      await lifecycle.expire(
        owner.organisationId,
        approving.id,
        new Date(Date.parse(approving.expiresAt) + 1_000),
      ),
    ).toBe(true);
    const after = (await http().get(`/api/interrupts/${approving.id}`).set('x-api-key', key)).body;
    expect(after.status).toBe('expired');
    expect(after.decisions).toEqual([
      expect.objectContaining({
        actionName: 'refund',
        decision: 'reject',
        message: 'No decision before the deadline.',
        decidedBy: { type: 'system', reason: 'timeout', name: 'system' },
      }),
    ]);
  });

  it('a change through one instance binds the next interrupt opened through another (its kept settings dropped)', async () => {
    // A second instance on the same database, which keeps the settings of an interrupt it opened.
    const b = await startTestApp({ databaseUrl: t.database.url });
    const bus = b.app.get(NotificationBus);
    const repository = b.app.get(OrganisationsRepository);
    const read = repository.deadlineSettings.bind(repository);
    /** B's bus's health at each of B's reads of the settings. */
    const reads: boolean[] = [];
    const spy = jest.spyOn(repository, 'deadlineSettings').mockImplementation((...args) => {
      reads.push(bus.healthy);
      return read(...args);
    });
    let resyncs = 0;
    const offResync = bus.onResync(() => resyncs++);
    try {
      const openOnB = async (extra: Record<string, unknown>) => {
        const before = reads.length;
        const res = await request(b.app.getHttpServer())
          .post('/api/interrupts')
          .set('x-api-key', key)
          .send({ title: 'Refund order', actionRequests: [{ name: 'refund' }], ...extra });
        return { res, reads: reads.slice(before) };
      };
      const lifetime = (res: request.Response) =>
        Date.parse(res.body.expiresAt) - Date.parse(res.body.createdAt);
      // Rounds: on a loaded machine B's bus may stop being trusted for a moment, and B then reads
      // the settings as it should; a round counts only when B served them from memory before the
      // change and read them again, on a trusted bus with no resync, after it.
      let proved = false;
      for (let round = 0; round < 3 && !proved; round++) {
        await waitFor(async () => bus.healthy, "B's bus to be trusted");
        await patch({ defaultTimeoutSeconds: 600, maxTimeoutSeconds: 7_200 });
        expect(lifetime((await openOnB({})).res)).toBe(600_000);
        const resyncsBefore = resyncs;
        const kept = await openOnB({ timeoutSeconds: 7_200 });
        expect(kept.res.status).toBe(201);
        if (kept.reads.length > 0) continue;

        expect(
          (await patch({ defaultTimeoutSeconds: 1_200, maxTimeoutSeconds: 3_600 })).status,
        ).toBe(200);
        const after = await openOnB({});
        expect(lifetime(after.res)).toBe(1_200_000);
        const tooLong = await openOnB({ timeoutSeconds: 7_200 });
        expect(tooLong.res.status).toBe(400);
        expect(tooLong.res.body.message).toBe(
          "timeoutSeconds: must be at most 3600 (this organisation's maximum)",
        );
        // The announcement dropped what B kept: its read came on a trusted bus, with no resync.
        proved = after.reads.length === 1 && after.reads[0] === true && resyncs === resyncsBefore;
      }
      expect(proved).toBe(true);
      expect((await patch({ defaultTimeoutSeconds: null })).status).toBe(200);
      const none = (await openOnB({})).res;
      expect(none.status).toBe(201);
      expect(none.body.expiresAt).toBeNull();
    } finally {
      offResync();
      spy.mockRestore();
      await b.close();
    }
  });
});
