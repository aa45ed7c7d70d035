import request from 'supertest';
import { DataSource } from 'typeorm';
import { PERMISSIONS } from '@interlock/domain';
import { startTestApp, TestApp } from './support/test-app';
import {
  builtInRoleIds,
  createApiKey,
  joinOrganisation,
  JoinedMember,
  signUpOwner,
  SignedUpOwner,
} from './support/factories';

describe('members (SPEC §6, member.manage)', () => {
  let t: TestApp;
  let owner: SignedUpOwner;
  let other: SignedUpOwner;
  let roles: Record<'owner' | 'developer' | 'manager', string>;

  const http = () => request(t.app.getHttpServer());

  async function createRole(cookie: string, name: string, permissions: string[]): Promise<string> {
    const res = await http().post('/api/roles').set('cookie', cookie).send({ name, permissions });
    expect(res.status).toBe(201);
    return res.body.id;
  }

  async function memberAudit(organisationId: string) {
    return t.app.get(DataSource).query(
      `SELECT action, actor_name, target_type, target_id, target_name, summary FROM audit_log_entries
          WHERE organisation_id = $1 AND action IN ('member.role_changed', 'member.removed') ORDER BY created_at, id`,
      [organisationId],
    ) as Promise<Record<string, string>[]>;
  }

  beforeAll(async () => {
    t = await startTestApp();
    owner = await signUpOwner(t.app.getHttpServer());
    other = await signUpOwner(t.app.getHttpServer(), {
      name: 'Charles Babbage',
      organisationName: 'Difference Engines',
    });
    roles = await builtInRoleIds(t.app.getHttpServer(), owner.cookie);
  });
  afterAll(async () => {
    await t.close();
  });

  it('lists the organisation’s members with their role, never a password hash', async () => {
    const grace = await joinOrganisation(t.app.getHttpServer(), owner.cookie, roles.manager);
    const res = await http().get('/api/members').set('cookie', owner.cookie);
    expect(res.status).toBe(200);
    expect(res.body.members).toEqual([
      {
        id: owner.memberId,
        email: owner.email,
        name: 'Ada Lovelace',
        roleId: roles.owner,
        roleName: 'Owner',
        createdAt: expect.any(String),
      },
      {
        id: grace.memberId,
        email: grace.email,
        name: 'Grace Hopper',
        roleId: roles.manager,
        roleName: 'Manager',
        createdAt: expect.any(String),
      },
    ]);
    expect(res.text).not.toMatch(/scrypt|password/i);
    const elsewhere = await http().get('/api/members').set('cookie', other.cookie);
    expect(elsewhere.body.members.map((m: { id: string }) => m.id)).toEqual([other.memberId]);
  });

  it('changes a member’s role, and their permissions follow at once', async () => {
    const dev = await joinOrganisation(
      t.app.getHttpServer(),
      owner.cookie,
      roles.manager,
      'Dana Dev',
    );
    expect((await http().get('/api/api-keys').set('cookie', dev.cookie)).status).toBe(200);
    expect(
      (
        await http()
          .post('/api/api-keys')
          .set('cookie', dev.cookie)
          .send({ name: 'k', expiry: 'never' })
      ).status,
    ).toBe(403);

    const res = await http()
      .patch(`/api/members/${dev.memberId}`)
      .set('cookie', owner.cookie)
      .send({ roleId: roles.developer });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: dev.memberId,
      email: dev.email,
      name: 'Dana Dev',
      roleId: roles.developer,
      roleName: 'Developer',
      createdAt: expect.any(String),
    });
    expect(
      (
        await http()
          .post('/api/api-keys')
          .set('cookie', dev.cookie)
          .send({ name: 'k', expiry: 'never' })
      ).status,
    ).toBe(201);

    // The same role again is a no-op.
    const same = await http()
      .patch(`/api/members/${dev.memberId}`)
      .set('cookie', owner.cookie)
      .send({ roleId: roles.developer });
    expect(same.status).toBe(200);
    expect(same.body.roleName).toBe('Developer');
  });

  it('refuses a role that is not the organisation’s with 404, a malformed one with 400', async () => {
    const m = await joinOrganisation(
      t.app.getHttpServer(),
      owner.cookie,
      roles.manager,
      'Rolf Roleless',
    );
    const theirs = await builtInRoleIds(t.app.getHttpServer(), other.cookie);
    for (const roleId of [theirs.owner, '5b1f4a36-2b55-4b4e-9d3c-3f9b1f2a7c10']) {
      const res = await http()
        .patch(`/api/members/${m.memberId}`)
        .set('cookie', owner.cookie)
        .send({ roleId });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'NOT_FOUND', message: 'Not found.' });
    }
    for (const body of [{ roleId: 'manager' }, {}, { roleId: roles.owner, name: 'x' }]) {
      const res = await http()
        .patch(`/api/members/${m.memberId}`)
        .set('cookie', owner.cookie)
        .send(body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.message).toMatch(/roleId|name/);
    }
  });

  it('answers 404 for an unknown, malformed or other organisation’s member id', async () => {
    for (const id of [other.memberId, '5b1f4a36-2b55-4b4e-9d3c-3f9b1f2a7c10', 'nope']) {
      const patch = await http()
        .patch(`/api/members/${id}`)
        .set('cookie', owner.cookie)
        .send({ roleId: roles.manager });
      expect(patch.status).toBe(404);
      expect(patch.body).toMatchObject({ code: 'NOT_FOUND', message: 'Not found.' });
      const del = await http().delete(`/api/members/${id}`).set('cookie', owner.cookie);
      expect(del.status).toBe(404);
    }
    const theirs = await http().get('/api/members').set('cookie', other.cookie);
    expect(theirs.body.members).toHaveLength(1);
  });

  it('removes a member: gone from the list, the membership ended at once, the user and sign-in kept', async () => {
    const m = await joinOrganisation(
      t.app.getHttpServer(),
      owner.cookie,
      roles.manager,
      'Leo Leaving',
    );
    expect((await http().get('/api/organisation').set('cookie', m.cookie)).status).toBe(200);
    const res = await http().delete(`/api/members/${m.memberId}`).set('cookie', owner.cookie);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const list = await http().get('/api/members').set('cookie', owner.cookie);
    expect(list.body.members.map((x: { id: string }) => x.id)).not.toContain(m.memberId);
    const ds = t.app.get(DataSource);
    const [membership] = await ds.query(
      `SELECT role_id, left_at FROM memberships WHERE organisation_id = $1 AND user_id = $2`,
      [owner.organisationId, m.memberId],
    );
    expect(membership).toEqual({ role_id: null, left_at: expect.any(Date) });
    // Still signed in, but a member of nothing: the organisation is out of reach at the next request.
    const [{ count }] = await ds.query(
      `SELECT count(*)::int AS count FROM sign_in_sessions WHERE user_id = $1`,
      [m.memberId],
    );
    expect(count).toBe(1);
    const after = await http().get('/api/organisation').set('cookie', m.cookie);
    expect(after.status).toBe(403);
    expect(after.body).toMatchObject({
      code: 'FORBIDDEN',
      message: 'You are not a member of any organisation.',
    });
    const named = await http()
      .get('/api/organisation')
      .set('cookie', m.cookie)
      .set('x-organisation-id', owner.organisationId);
    expect(named.status).toBe(404);
    expect(named.body).toMatchObject({ code: 'NOT_FOUND', message: 'Not found.' });
    expect((await http().get('/api/me').set('cookie', m.cookie)).body.organisations).toEqual([]);
    expect(
      (await http().delete(`/api/members/${m.memberId}`).set('cookie', owner.cookie)).status,
    ).toBe(404);
  });

  describe('the last Owner', () => {
    let org: SignedUpOwner;
    let orgRoles: Record<'owner' | 'developer' | 'manager', string>;
    let second: JoinedMember;

    beforeAll(async () => {
      org = await signUpOwner(t.app.getHttpServer(), { organisationName: 'Solo' });
      orgRoles = await builtInRoleIds(t.app.getHttpServer(), org.cookie);
    });

    it('cannot be demoted or removed, even by themselves', async () => {
      const demote = await http()
        .patch(`/api/members/${org.memberId}`)
        .set('cookie', org.cookie)
        .send({ roleId: orgRoles.manager });
      expect(demote.status).toBe(409);
      expect(demote.body.code).toBe('CONFLICT');
      expect(demote.body.message).toMatch(/at least one Owner/);
      const remove = await http().delete(`/api/members/${org.memberId}`).set('cookie', org.cookie);
      expect(remove.status).toBe(409);
      expect(remove.body.message).toMatch(/at least one Owner/);
      const list = await http().get('/api/members').set('cookie', org.cookie);
      expect(list.body.members[0].roleName).toBe('Owner');
    });

    it('can hand over to a second Owner, who then cannot leave', async () => {
      second = await joinOrganisation(
        t.app.getHttpServer(),
        org.cookie,
        orgRoles.owner,
        'Olga Owner',
      );
      const demote = await http()
        .patch(`/api/members/${org.memberId}`)
        .set('cookie', second.cookie)
        .send({ roleId: orgRoles.developer });
      expect(demote.status).toBe(200);
      expect(demote.body.roleName).toBe('Developer');
      const self = await http()
        .patch(`/api/members/${second.memberId}`)
        .set('cookie', second.cookie)
        .send({ roleId: orgRoles.manager });
      expect(self.status).toBe(409);
      const leave = await http()
        .delete(`/api/members/${second.memberId}`)
        .set('cookie', second.cookie);
      expect(leave.status).toBe(409);
    });

    it('lets an Owner leave while another remains; they stay signed in, as a member of nothing', async () => {
      const third = await joinOrganisation(
        t.app.getHttpServer(),
        second.cookie,
        orgRoles.owner,
        'Theo Third',
      );
      const res = await http().delete(`/api/members/${third.memberId}`).set('cookie', third.cookie);
      expect(res.status).toBe(204);
      expect(res.headers['set-cookie']).toBeUndefined();
      expect((await http().get('/api/members').set('cookie', third.cookie)).status).toBe(403);
      expect((await http().get('/api/me').set('cookie', third.cookie)).status).toBe(200);
    });

    it('survives concurrent demotions of every Owner: exactly one remains', async () => {
      const race = await signUpOwner(t.app.getHttpServer(), { organisationName: 'Race' });
      const raceRoles = await builtInRoleIds(t.app.getHttpServer(), race.cookie);
      const owners = [race.memberId];
      for (const name of ['Bea', 'Cy', 'Di', 'Ed', 'Flo']) {
        owners.push(
          (
            await joinOrganisation(
              t.app.getHttpServer(),
              race.cookie,
              raceRoles.owner,
              `${name} Owner`,
            )
          ).memberId,
        );
      }
      // The caller is not an Owner (a custom role holding everything), so every request keeps
      // its permission whichever commits first.
      const everything = await createRole(race.cookie, 'Everything', [...PERMISSIONS]);
      const caller = await joinOrganisation(
        t.app.getHttpServer(),
        race.cookie,
        everything,
        'Cal Caller',
      );
      const results = await Promise.all(
        owners.map((id) =>
          http()
            .patch(`/api/members/${id}`)
            .set('cookie', caller.cookie)
            .send({ roleId: raceRoles.manager }),
        ),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 409]);
      const [{ count }] = await t.app
        .get(DataSource)
        .query(
          `SELECT count(*)::int AS count FROM memberships WHERE organisation_id = $1 AND role_id = $2`,
          [race.organisationId, raceRoles.owner],
        );
      expect(count).toBe(1);
    });
  });

  it('lets a member with member.manage remove themselves', async () => {
    const people = await createRole(owner.cookie, 'People leavers', ['member.manage']);
    const m = await joinOrganisation(t.app.getHttpServer(), owner.cookie, people, 'Sam Self');
    const res = await http().delete(`/api/members/${m.memberId}`).set('cookie', m.cookie);
    expect(res.status).toBe(204);
    expect(
      (
        await http()
          .get('/api/members')
          .set('cookie', m.cookie)
          .set('x-organisation-id', owner.organisationId)
      ).status,
    ).toBe(404);
  });

  it('lists the members to the built-in Manager (who may assign interrupts), and nothing more', async () => {
    const manager = await joinOrganisation(
      t.app.getHttpServer(),
      owner.cookie,
      roles.manager,
      'Mary Manager',
    );
    const list = await http().get('/api/members').set('cookie', manager.cookie);
    expect(list.status).toBe(200);
    expect((list.body.members as { id: string }[]).map((m) => m.id)).toEqual(
      expect.arrayContaining([owner.memberId, manager.memberId]),
    );
    for (const res of [
      await http()
        .patch(`/api/members/${manager.memberId}`)
        .set('cookie', manager.cookie)
        .send({ roleId: roles.owner }),
      await http().delete(`/api/members/${owner.memberId}`).set('cookie', manager.cookie),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({
        code: 'MISSING_PERMISSION',
        message: 'Missing permission: member.manage.',
      });
    }
  });

  it('answers 403 naming both permissions to a member who may neither manage members nor assign', async () => {
    const role = await http()
      .post('/api/roles')
      .set('cookie', owner.cookie)
      .send({ name: 'Reader', permissions: ['interrupt.read'] });
    expect(role.status).toBe(201);
    const reader = await joinOrganisation(
      t.app.getHttpServer(),
      owner.cookie,
      role.body.id,
      'Rita Reader',
    );
    const res = await http().get('/api/members').set('cookie', reader.cookie);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      code: 'MISSING_PERMISSION',
      message: 'Missing permission: member.manage or interrupt.assign.',
    });
    const teams = await http().get('/api/teams').set('cookie', reader.cookie);
    expect(teams.status).toBe(403);
    expect(teams.body).toMatchObject({
      code: 'MISSING_PERMISSION',
      message: 'Missing permission: team.manage or interrupt.assign.',
    });
  });

  it('answers 403 to a request carrying x-api-key', async () => {
    const key = await createApiKey(t.app.getHttpServer(), owner.cookie);
    const res = await http()
      .get('/api/members')
      .set('x-api-key', key.key)
      .set('cookie', owner.cookie);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      code: 'HUMANS_ONLY',
      message: 'This endpoint is reserved for humans.',
    });
    const del = await http().delete(`/api/members/${owner.memberId}`).set('x-api-key', 'anything');
    expect(del.status).toBe(403);
    expect(del.body.code).toBe('HUMANS_ONLY');
  });

  describe('no privilege escalation', () => {
    let hr: JoinedMember;
    let target: JoinedMember;

    beforeAll(async () => {
      const people = await createRole(owner.cookie, 'People', [
        'member.manage',
        'member.invite',
        'interrupt.read',
      ]);
      hr = await joinOrganisation(t.app.getHttpServer(), owner.cookie, people, 'Hana HR');
      target = await joinOrganisation(
        t.app.getHttpServer(),
        owner.cookie,
        roles.manager,
        'Tim Target',
      );
    });

    it('refuses to grant a role holding a permission the caller lacks', async () => {
      const res = await http()
        .patch(`/api/members/${target.memberId}`)
        .set('cookie', hr.cookie)
        .send({ roleId: roles.developer });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({
        code: 'MISSING_PERMISSION',
        message: 'Missing permission: apiKey.create.',
      });
      const self = await http()
        .patch(`/api/members/${hr.memberId}`)
        .set('cookie', hr.cookie)
        .send({ roleId: roles.owner });
      expect(self.status).toBe(403);
      expect(self.body.message).toBe('Missing permission: apiKey.create.');
    });

    it('refuses to change or remove a member whose role holds more than the caller’s', async () => {
      const demote = await http()
        .patch(`/api/members/${owner.memberId}`)
        .set('cookie', hr.cookie)
        .send({ roleId: roles.manager });
      expect(demote.status).toBe(403);
      expect(demote.body.code).toBe('MISSING_PERMISSION');
      const remove = await http()
        .delete(`/api/members/${target.memberId}`)
        .set('cookie', hr.cookie);
      expect(remove.status).toBe(403);
      expect(remove.body.message).toBe('Missing permission: apiKey.read.');
    });

    it('allows what stays within the caller’s permissions', async () => {
      const low = await createRole(owner.cookie, 'Readers only', ['interrupt.read']);
      const m = await joinOrganisation(t.app.getHttpServer(), owner.cookie, low, 'Rae Reader');
      const toPeople = await http()
        .patch(`/api/members/${m.memberId}`)
        .set('cookie', hr.cookie)
        .send({ roleId: low });
      expect(toPeople.status).toBe(200);
      expect(
        (await http().delete(`/api/members/${m.memberId}`).set('cookie', hr.cookie)).status,
      ).toBe(204);
    });
  });

  it('writes member.role_changed and member.removed entries, none for refused changes', async () => {
    const org = await signUpOwner(t.app.getHttpServer(), { organisationName: 'Audited' });
    const orgRoles = await builtInRoleIds(t.app.getHttpServer(), org.cookie);
    const m = await joinOrganisation(
      t.app.getHttpServer(),
      org.cookie,
      orgRoles.manager,
      'Grace Hopper',
    );
    await http()
      .patch(`/api/members/${m.memberId}`)
      .set('cookie', org.cookie)
      .send({ roleId: orgRoles.developer });
    await http()
      .patch(`/api/members/${m.memberId}`)
      .set('cookie', org.cookie)
      .send({ roleId: orgRoles.developer }); // no-op
    await http()
      .patch(`/api/members/${org.memberId}`)
      .set('cookie', org.cookie)
      .send({ roleId: orgRoles.manager }); // 409
    await http().delete(`/api/members/${m.memberId}`).set('cookie', org.cookie);
    expect(await memberAudit(org.organisationId)).toEqual([
      {
        action: 'member.role_changed',
        actor_name: 'Ada Lovelace',
        target_type: 'user',
        target_id: m.memberId,
        target_name: 'Grace Hopper',
        summary: "Grace Hopper's role changed from Manager to Developer by Ada Lovelace",
      },
      {
        action: 'member.removed',
        actor_name: 'Ada Lovelace',
        target_type: 'user',
        target_id: m.memberId,
        target_name: 'Grace Hopper',
        summary: 'Grace Hopper removed by Ada Lovelace',
      },
    ]);
  });
});
