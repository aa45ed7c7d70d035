import request from 'supertest';
import { DataSource } from 'typeorm';
import { startTestApp, TestApp } from './support/test-app';
import {
  builtInRoleIds,
  createApiKey,
  joinOrganisation,
  signUpOwner,
  SignedUpOwner,
} from './support/factories';

const UNKNOWN_ID = '5b1f4a36-2b55-4b4e-9d3c-3f9b1f2a7c10';

describe('teams (SPEC §6, team.manage)', () => {
  let t: TestApp;
  let owner: SignedUpOwner;
  let other: SignedUpOwner;
  let grace: { cookie: string; memberId: string };

  const http = () => request(t.app.getHttpServer());

  async function createTeam(cookie: string, name: string): Promise<string> {
    const res = await http().post('/api/teams').set('cookie', cookie).send({ name });
    expect(res.status).toBe(201);
    return res.body.id;
  }

  async function teamOf(cookie: string, id: string) {
    const res = await http().get('/api/teams').set('cookie', cookie);
    return res.body.teams.find((team: { id: string }) => team.id === id);
  }

  beforeAll(async () => {
    t = await startTestApp();
    owner = await signUpOwner(t.app.getHttpServer());
    other = await signUpOwner(t.app.getHttpServer(), {
      name: 'Charles Babbage',
      organisationName: 'Difference Engines',
    });
    const { manager } = await builtInRoleIds(t.app.getHttpServer(), owner.cookie);
    grace = await joinOrganisation(t.app.getHttpServer(), owner.cookie, manager, 'Grace Hopper');
  });
  afterAll(async () => {
    await t.close();
  });

  it('creates and lists teams', async () => {
    const res = await http()
      .post('/api/teams')
      .set('cookie', owner.cookie)
      .send({ name: 'Platform' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Platform',
      memberIds: [],
      createdAt: expect.any(String),
    });
    const list = await http().get('/api/teams').set('cookie', owner.cookie);
    expect(list.status).toBe(200);
    expect(list.body.teams).toContainEqual(res.body);
    const elsewhere = await http().get('/api/teams').set('cookie', other.cookie);
    expect(elsewhere.body.teams).toEqual([]);
  });

  it.each([
    [{ name: '' }],
    [{ name: ' ' }],
    [{ name: 'x'.repeat(51) }],
    [{}],
    [{ name: 7 }],
    [{ name: 'ok', colour: 'red' }],
  ])('refuses %j with 400', async (body) => {
    const res = await http().post('/api/teams').set('cookie', owner.cookie).send(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.message).toMatch(/name|colour/);
  });

  it('refuses a duplicate name with 409, in the organisation only', async () => {
    await createTeam(owner.cookie, 'Support');
    const dup = await http()
      .post('/api/teams')
      .set('cookie', owner.cookie)
      .send({ name: 'Support' });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({
      code: 'CONFLICT',
      message: 'A team with this name already exists.',
    });
    expect(
      (await http().post('/api/teams').set('cookie', other.cookie).send({ name: 'Support' }))
        .status,
    ).toBe(201);
  });

  it('renames a team', async () => {
    const id = await createTeam(owner.cookie, 'Old name');
    const res = await http()
      .patch(`/api/teams/${id}`)
      .set('cookie', owner.cookie)
      .send({ name: 'New name' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, name: 'New name', memberIds: [] });
    const dup = await http()
      .patch(`/api/teams/${id}`)
      .set('cookie', owner.cookie)
      .send({ name: 'Support' });
    expect(dup.status).toBe(409);
    const bad = await http().patch(`/api/teams/${id}`).set('cookie', owner.cookie).send({});
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('name');
  });

  it('adds and removes members, idempotently', async () => {
    const id = await createTeam(owner.cookie, 'Reviewers');
    for (const memberId of [grace.memberId, owner.memberId, grace.memberId]) {
      const res = await http()
        .post(`/api/teams/${id}/members`)
        .set('cookie', owner.cookie)
        .send({ memberId });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
    }
    expect((await teamOf(owner.cookie, id)).memberIds).toEqual([grace.memberId, owner.memberId]);

    const removed = await http()
      .delete(`/api/teams/${id}/members/${grace.memberId}`)
      .set('cookie', owner.cookie);
    expect(removed.status).toBe(204);
    expect(
      (
        await http()
          .delete(`/api/teams/${id}/members/${grace.memberId}`)
          .set('cookie', owner.cookie)
      ).status,
    ).toBe(204);
    expect((await teamOf(owner.cookie, id)).memberIds).toEqual([owner.memberId]);
  });

  it('a member removed from the organisation leaves their teams', async () => {
    const id = await createTeam(owner.cookie, 'Short-lived');
    const { manager } = await builtInRoleIds(t.app.getHttpServer(), owner.cookie);
    const leaver = await joinOrganisation(
      t.app.getHttpServer(),
      owner.cookie,
      manager,
      'Lee Leaver',
    );
    await http()
      .post(`/api/teams/${id}/members`)
      .set('cookie', owner.cookie)
      .send({ memberId: leaver.memberId });
    expect(
      (await http().delete(`/api/members/${leaver.memberId}`).set('cookie', owner.cookie)).status,
    ).toBe(204);
    expect((await teamOf(owner.cookie, id)).memberIds).toEqual([]);
  });

  it('answers 404 for a member or team of another organisation, or unknown ones', async () => {
    const mine = await createTeam(owner.cookie, 'Mine');
    const theirs = await createTeam(other.cookie, 'Theirs');
    for (const memberId of [other.memberId, UNKNOWN_ID]) {
      const add = await http()
        .post(`/api/teams/${mine}/members`)
        .set('cookie', owner.cookie)
        .send({ memberId });
      expect(add.status).toBe(404);
      expect(add.body).toMatchObject({ code: 'NOT_FOUND', message: 'Not found.' });
      expect(
        (await http().delete(`/api/teams/${mine}/members/${memberId}`).set('cookie', owner.cookie))
          .status,
      ).toBe(404);
    }
    for (const id of [theirs, UNKNOWN_ID, 'not-a-uuid']) {
      expect(
        (
          await http()
            .patch(`/api/teams/${id}`)
            .set('cookie', owner.cookie)
            .send({ name: 'Taken over' })
        ).status,
      ).toBe(404);
      expect((await http().delete(`/api/teams/${id}`).set('cookie', owner.cookie)).status).toBe(
        404,
      );
      expect(
        (
          await http()
            .post(`/api/teams/${id}/members`)
            .set('cookie', owner.cookie)
            .send({ memberId: owner.memberId })
        ).status,
      ).toBe(404);
      expect(
        (
          await http()
            .delete(`/api/teams/${id}/members/${owner.memberId}`)
            .set('cookie', owner.cookie)
        ).status,
      ).toBe(404);
    }
    expect(
      (await http().delete(`/api/teams/${mine}/members/not-a-uuid`).set('cookie', owner.cookie))
        .status,
    ).toBe(404);
    const bad = await http()
      .post(`/api/teams/${mine}/members`)
      .set('cookie', owner.cookie)
      .send({ memberId: 'grace' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('memberId');
    expect((await teamOf(other.cookie, theirs)).name).toBe('Theirs');
  });

  it('deletes a team', async () => {
    const id = await createTeam(owner.cookie, 'Doomed');
    await http()
      .post(`/api/teams/${id}/members`)
      .set('cookie', owner.cookie)
      .send({ memberId: grace.memberId });
    const res = await http().delete(`/api/teams/${id}`).set('cookie', owner.cookie);
    expect(res.status).toBe(204);
    expect(await teamOf(owner.cookie, id)).toBeUndefined();
    expect((await http().delete(`/api/teams/${id}`).set('cookie', owner.cookie)).status).toBe(404);
  });

  it('lists the teams to the built-in Manager (who may assign interrupts), and changes nothing', async () => {
    const id = await createTeam(owner.cookie, 'Guarded');
    const list = await http().get('/api/teams').set('cookie', grace.cookie);
    expect(list.status).toBe(200);
    expect((list.body.teams as { id: string }[]).map((team) => team.id)).toContain(id);
    for (const res of [
      await http().post('/api/teams').set('cookie', grace.cookie).send({ name: 'Mine' }),
      await http().patch(`/api/teams/${id}`).set('cookie', grace.cookie).send({ name: 'Mine' }),
      await http()
        .post(`/api/teams/${id}/members`)
        .set('cookie', grace.cookie)
        .send({ memberId: grace.memberId }),
      await http().delete(`/api/teams/${id}`).set('cookie', grace.cookie),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({
        code: 'MISSING_PERMISSION',
        message: 'Missing permission: team.manage.',
      });
    }
  });

  it('answers 401 without a session and 403 to a request carrying x-api-key', async () => {
    expect((await http().get('/api/teams')).status).toBe(401);
    const key = await createApiKey(t.app.getHttpServer(), owner.cookie);
    const res = await http()
      .post('/api/teams')
      .set('x-api-key', key.key)
      .set('cookie', owner.cookie)
      .send({ name: 'Bots' });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      code: 'HUMANS_ONLY',
      message: 'This endpoint is reserved for humans.',
    });
  });

  it('writes an audit entry for each change, none for a no-op', async () => {
    const org = await signUpOwner(t.app.getHttpServer(), { organisationName: 'Audited' });
    const id = await createTeam(org.cookie, 'Platform');
    await http().post('/api/teams').set('cookie', org.cookie).send({ name: 'Platform' }); // 409
    await http().patch(`/api/teams/${id}`).set('cookie', org.cookie).send({ name: 'Platform' }); // no-op
    await http().patch(`/api/teams/${id}`).set('cookie', org.cookie).send({ name: 'Core' });
    await http()
      .post(`/api/teams/${id}/members`)
      .set('cookie', org.cookie)
      .send({ memberId: org.memberId });
    await http()
      .post(`/api/teams/${id}/members`)
      .set('cookie', org.cookie)
      .send({ memberId: org.memberId }); // no-op
    await http().delete(`/api/teams/${id}/members/${org.memberId}`).set('cookie', org.cookie);
    await http().delete(`/api/teams/${id}/members/${org.memberId}`).set('cookie', org.cookie); // no-op
    await http().delete(`/api/teams/${id}`).set('cookie', org.cookie);
    const rows = await t.app.get(DataSource).query(
      `SELECT action, actor_name, target_type, target_id, target_name, summary FROM audit_log_entries
          WHERE organisation_id = $1 AND category = 'team' ORDER BY created_at, id`,
      [org.organisationId],
    );
    const entry = (action: string, targetName: string, summary: string) => ({
      action,
      actor_name: 'Ada Lovelace',
      target_type: 'team',
      target_id: id,
      target_name: targetName,
      summary,
    });
    expect(rows).toEqual([
      entry('team.created', 'Platform', 'Team Platform created by Ada Lovelace'),
      entry('team.renamed', 'Core', 'Team Platform renamed to Core by Ada Lovelace'),
      entry('team.member_added', 'Core', 'Ada Lovelace added to team Core by Ada Lovelace'),
      entry('team.member_removed', 'Core', 'Ada Lovelace removed from team Core by Ada Lovelace'),
      entry('team.deleted', 'Core', 'Team Core deleted by Ada Lovelace'),
    ]);
  });
});
