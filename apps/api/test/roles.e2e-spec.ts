import request from 'supertest';
import { DataSource } from 'typeorm';
import { PERMISSIONS } from '@interlock/domain';
import { startTestApp, TestApp } from './support/test-app';
import {
  builtInRoleIds,
  createApiKey,
  joinOrganisation,
  memberWithPermissions,
  signUpOwner,
  SignedUpOwner,
  uniqueEmail,
} from './support/factories';

describe('roles (SPEC §6, role.manage)', () => {
  let t: TestApp;
  let owner: SignedUpOwner;
  let other: SignedUpOwner;
  let manager: string;

  const http = () => request(t.app.getHttpServer());

  async function roleAudit(organisationId: string) {
    return t.app.get(DataSource).query(
      `SELECT action, actor_name, target_type, target_name, summary FROM audit_log_entries
          WHERE organisation_id = $1 AND category = 'role' ORDER BY created_at, id`,
      [organisationId],
    ) as Promise<
      {
        action: string;
        actor_name: string;
        target_type: string;
        target_name: string;
        summary: string;
      }[]
    >;
  }

  beforeAll(async () => {
    t = await startTestApp();
    owner = await signUpOwner(t.app.getHttpServer());
    other = await signUpOwner(t.app.getHttpServer(), {
      name: 'Charles Babbage',
      organisationName: 'Difference Engines',
    });
    const { manager: managerRoleId } = await builtInRoleIds(t.app.getHttpServer(), owner.cookie);
    manager = (
      await joinOrganisation(t.app.getHttpServer(), owner.cookie, managerRoleId, 'Mary Manager')
    ).cookie;
  });
  afterAll(async () => {
    await t.close();
  });

  it('lists the three built-in roles with their permissions', async () => {
    const res = await http().get('/api/roles').set('cookie', other.cookie);
    expect(res.status).toBe(200);
    expect(
      res.body.roles.map((r: { name: string; builtIn: string }) => [r.name, r.builtIn]),
    ).toEqual([
      ['Owner', 'owner'],
      ['Developer', 'developer'],
      ['Manager', 'manager'],
    ]);
    const [ownerRole, , managerRole] = res.body.roles;
    expect(Object.keys(ownerRole).sort()).toEqual([
      'builtIn',
      'createdAt',
      'id',
      'name',
      'permissions',
    ]);
    expect(ownerRole.permissions).toEqual([...PERMISSIONS]);
    expect(managerRole.permissions).toEqual([
      'apiKey.read',
      'interrupt.decide',
      'interrupt.assign',
      'interrupt.escalate',
      'interrupt.read',
      'session.read',
      'member.invite',
      'auditLog.read',
      'classification.read',
    ]);
    expect(new Date(ownerRole.createdAt).toISOString()).toBe(ownerRole.createdAt);
  });

  it('creates a custom role, its permissions in canonical order, and lists it', async () => {
    const res = await http()
      .post('/api/roles')
      .set('cookie', owner.cookie)
      .send({
        name: 'Reviewers',
        permissions: ['interrupt.read', 'apiKey.read', 'interrupt.decide'],
      });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Reviewers',
      permissions: ['apiKey.read', 'interrupt.decide', 'interrupt.read'],
      builtIn: null,
      createdAt: expect.any(String),
    });
    const list = await http().get('/api/roles').set('cookie', owner.cookie);
    expect(list.body.roles.at(-1)).toEqual(res.body);
    // Another organisation does not see it.
    const elsewhere = await http().get('/api/roles').set('cookie', other.cookie);
    expect(elsewhere.body.roles.map((r: { id: string }) => r.id)).not.toContain(res.body.id);
  });

  it('allows a role with no permissions', async () => {
    const res = await http()
      .post('/api/roles')
      .set('cookie', owner.cookie)
      .send({ name: 'Observers', permissions: [] });
    expect(res.status).toBe(201);
    expect(res.body.permissions).toEqual([]);
  });

  it.each([
    [{ name: 'X', permissions: ['apiKey.read', 'apiKey.*'] }, 'permissions'],
    [{ name: 'X', permissions: ['apiKey.read', 'apiKey.read'] }, 'permissions'],
    [{ name: 'X', permissions: 'apiKey.read' }, 'permissions'],
    [{ name: 'X', permissions: [1] }, 'permissions'],
    [{ name: 'X' }, 'permissions'],
    [{ name: '', permissions: [] }, 'name'],
    [{ name: '   ', permissions: [] }, 'name'],
    [{ name: 'x'.repeat(51), permissions: [] }, 'name'],
    [{ permissions: [] }, 'name'],
    [{ name: 'X', permissions: [], colour: 'red' }, 'colour'],
  ])('refuses %j with 400 naming %s', async (body, field) => {
    const res = await http().post('/api/roles').set('cookie', owner.cookie).send(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.message).toContain(field);
  });

  it('accepts a 50-character name', async () => {
    const res = await http()
      .post('/api/roles')
      .set('cookie', owner.cookie)
      .send({ name: 'n'.repeat(50), permissions: [] });
    expect(res.status).toBe(201);
  });

  it('refuses a duplicate name in the organisation with 409, but not in another one', async () => {
    const first = await http()
      .post('/api/roles')
      .set('cookie', owner.cookie)
      .send({ name: 'Auditors', permissions: [] });
    expect(first.status).toBe(201);
    const again = await http()
      .post('/api/roles')
      .set('cookie', owner.cookie)
      .send({ name: 'Auditors', permissions: ['auditLog.read'] });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      code: 'CONFLICT',
      message: 'A role with this name already exists.',
    });
    const builtInName = await http()
      .post('/api/roles')
      .set('cookie', owner.cookie)
      .send({ name: 'Owner', permissions: [] });
    expect(builtInName.status).toBe(409);
    const elsewhere = await http()
      .post('/api/roles')
      .set('cookie', other.cookie)
      .send({ name: 'Auditors', permissions: [] });
    expect(elsewhere.status).toBe(201);
  });

  it('updates a custom role’s name and permissions', async () => {
    const created = await http()
      .post('/api/roles')
      .set('cookie', owner.cookie)
      .send({ name: 'Triage', permissions: ['interrupt.read'] });
    const res = await http()
      .patch(`/api/roles/${created.body.id}`)
      .set('cookie', owner.cookie)
      .send({ name: 'Triagers', permissions: ['interrupt.assign', 'interrupt.read'] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: created.body.id,
      name: 'Triagers',
      permissions: ['interrupt.assign', 'interrupt.read'],
    });
    const onlyName = await http()
      .patch(`/api/roles/${created.body.id}`)
      .set('cookie', owner.cookie)
      .send({ name: 'Triage team' });
    expect(onlyName.body).toMatchObject({
      name: 'Triage team',
      permissions: ['interrupt.assign', 'interrupt.read'],
    });
    const dup = await http()
      .patch(`/api/roles/${created.body.id}`)
      .set('cookie', owner.cookie)
      .send({ name: 'Reviewers' });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('CONFLICT');
    const bad = await http()
      .patch(`/api/roles/${created.body.id}`)
      .set('cookie', owner.cookie)
      .send({ permissions: ['nope'] });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('permissions');
  });

  it('a member holding a role sees its new permissions at once', async () => {
    const role = await http()
      .post('/api/roles')
      .set('cookie', owner.cookie)
      .send({ name: 'Growing', permissions: ['team.manage'] });
    const cookie = (
      await joinOrganisation(t.app.getHttpServer(), owner.cookie, role.body.id, 'Gary Growing')
    ).cookie;
    expect((await http().get('/api/roles').set('cookie', cookie)).status).toBe(403);
    await http()
      .patch(`/api/roles/${role.body.id}`)
      .set('cookie', owner.cookie)
      .send({ permissions: ['team.manage', 'role.manage'] });
    expect((await http().get('/api/roles').set('cookie', cookie)).status).toBe(200);
  });

  it('refuses to change or delete a built-in role with 409', async () => {
    const managerRoleId = (await builtInRoleIds(t.app.getHttpServer(), owner.cookie)).manager;
    const change = await http()
      .patch(`/api/roles/${managerRoleId}`)
      .set('cookie', owner.cookie)
      .send({ permissions: ['billing.manage'] });
    expect(change.status).toBe(409);
    expect(change.body).toMatchObject({
      code: 'CONFLICT',
      message: 'Built-in roles cannot be changed.',
    });
    const rename = await http()
      .patch(`/api/roles/${managerRoleId}`)
      .set('cookie', owner.cookie)
      .send({ name: 'Boss' });
    expect(rename.status).toBe(409);
    const del = await http().delete(`/api/roles/${managerRoleId}`).set('cookie', owner.cookie);
    expect(del.status).toBe(409);
    expect(del.body).toMatchObject({
      code: 'CONFLICT',
      message: 'Built-in roles cannot be deleted.',
    });
  });

  it('deletes a custom role nobody holds, and refuses one still held with 409', async () => {
    const unused = await http()
      .post('/api/roles')
      .set('cookie', owner.cookie)
      .send({ name: 'Temporary', permissions: [] });
    const del = await http().delete(`/api/roles/${unused.body.id}`).set('cookie', owner.cookie);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    const list = await http().get('/api/roles').set('cookie', owner.cookie);
    expect(list.body.roles.map((r: { id: string }) => r.id)).not.toContain(unused.body.id);
    expect(
      (await http().delete(`/api/roles/${unused.body.id}`).set('cookie', owner.cookie)).status,
    ).toBe(404);

    const held = await http()
      .post('/api/roles')
      .set('cookie', owner.cookie)
      .send({ name: 'Held', permissions: [] });
    await joinOrganisation(t.app.getHttpServer(), owner.cookie, held.body.id, 'Harriet Held');
    const refused = await http().delete(`/api/roles/${held.body.id}`).set('cookie', owner.cookie);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 'CONFLICT',
      message: 'Role Held is still held by 1 member; give them another role first.',
    });
  });

  it('deleting a role deletes the invitations naming it, each with its audit entry in the same transaction', async () => {
    const ds = t.app.get(DataSource);
    const roleId = (
      await http()
        .post('/api/roles')
        .set('cookie', owner.cookie)
        .send({ name: 'Contractor', permissions: [] })
        .expect(201)
    ).body.id;
    const invite = async (email: string) =>
      (
        await http()
          .post('/api/invitations')
          .set('cookie', owner.cookie)
          .send({ email, roleId })
          .expect(201)
      ).body as { id: string; token: string };
    const pending = await invite(uniqueEmail('pending'));
    const expired = await invite(uniqueEmail('expired'));
    await ds.query(
      `UPDATE invitations SET expires_at = now() - interval '1 day' WHERE organisation_id = $1 AND id = $2`,
      [owner.organisationId, expired.id],
    );
    // Accepted, and its member since moved to another role: the role is no longer held.
    const joined = await joinOrganisation(
      t.app.getHttpServer(),
      owner.cookie,
      roleId,
      'Carl Contractor',
    );
    const { manager: managerRoleId } = await builtInRoleIds(t.app.getHttpServer(), owner.cookie);
    await http()
      .patch(`/api/members/${joined.memberId}`)
      .set('cookie', owner.cookie)
      .send({ roleId: managerRoleId })
      .expect(200);
    const invitations = await ds.query(
      `SELECT id, email FROM invitations WHERE organisation_id = $1 AND role_id = $2 ORDER BY email, id`,
      [owner.organisationId, roleId],
    );
    expect(invitations).toHaveLength(3);

    expect((await http().delete(`/api/roles/${roleId}`).set('cookie', owner.cookie)).status).toBe(
      204,
    );
    expect(
      await ds.query(`SELECT id FROM invitations WHERE organisation_id = $1 AND role_id = $2`, [
        owner.organisationId,
        roleId,
      ]),
    ).toEqual([]);
    const entries = await ds.query(
      `SELECT action, actor_name, target_type, target_id, target_name, summary, metadata FROM audit_log_entries
        WHERE organisation_id = $1 AND (action = 'member.invitation_deleted' OR (action = 'role.deleted' AND target_id = $2))
        ORDER BY seq`,
      [owner.organisationId, roleId],
    );
    const states: Record<string, string> = { [pending.id]: 'pending', [expired.id]: 'expired' };
    expect(entries).toEqual([
      ...invitations.map((i: { id: string; email: string }) => ({
        action: 'member.invitation_deleted',
        actor_name: 'Ada Lovelace',
        target_type: 'invitation',
        target_id: i.id,
        target_name: i.email,
        summary: `Invitation of ${i.email} as Contractor deleted with the role by Ada Lovelace`,
        metadata: {
          email: i.email,
          roleId,
          role: 'Contractor',
          state: states[i.id] ?? 'accepted',
          reason: 'role.deleted',
        },
      })),
      {
        action: 'role.deleted',
        actor_name: 'Ada Lovelace',
        target_type: 'role',
        target_id: roleId,
        target_name: 'Contractor',
        summary: 'Role Contractor deleted by Ada Lovelace',
        metadata: { permissions: [], invitationsDeleted: 3 },
      },
    ]);
    // The pending invitation can no longer be accepted.
    expect(
      (
        await http()
          .post(`/api/invitations/${pending.token}/accept`)
          .send({ name: 'Late', password: 'correct horse battery staple' })
      ).status,
    ).toBe(404);
  });

  it('a role deleted while its invitation is being accepted waits for the acceptance, then answers 409 (no deadlock)', async () => {
    const ds = t.app.get(DataSource);
    const roleId = (
      await http()
        .post('/api/roles')
        .set('cookie', owner.cookie)
        .send({ name: 'Racing', permissions: [] })
        .expect(201)
    ).body.id;
    const sent = await http()
      .post('/api/invitations')
      .set('cookie', owner.cookie)
      .send({ email: uniqueEmail('race'), roleId })
      .expect(201);
    // An acceptance midway, in the order accept takes its locks: the invitation, then (granting
    // the role through the member's foreign key) the role.
    const accepting = ds.createQueryRunner();
    await accepting.connect();
    try {
      await accepting.startTransaction();
      await accepting.query(
        `SELECT id FROM invitations WHERE organisation_id = $1 AND id = $2 FOR UPDATE`,
        [owner.organisationId, sent.body.id],
      );
      const deleting = http()
        .delete(`/api/roles/${roleId}`)
        .set('cookie', owner.cookie)
        .then((res) => res);
      const waiting = async () =>
        (
          await ds.query(
            `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
          )
        )[0].n;
      for (let i = 0; i < 200 && (await waiting()) === 0; i++)
        await new Promise((resolve) => setTimeout(resolve, 25));
      expect(await waiting()).toBeGreaterThan(0);
      await accepting.query(
        `WITH u AS (INSERT INTO users (id, email, name, password_hash) VALUES (gen_random_uuid(), $2, 'Racer', 'x') RETURNING id)
         INSERT INTO memberships (organisation_id, user_id, role_id) SELECT $1, u.id, $3 FROM u`,
        [owner.organisationId, sent.body.email, roleId],
      );
      await accepting.query(
        `UPDATE invitations SET accepted_at = now() WHERE organisation_id = $1 AND id = $2`,
        [owner.organisationId, sent.body.id],
      );
      await accepting.commitTransaction();
      const deleted = await deleting;
      expect({ status: deleted.status, message: deleted.body.message }).toEqual({
        status: 409,
        message: 'Role Racing is still held by 1 member; give them another role first.',
      });
    } finally {
      await accepting.release();
    }
  });

  it('answers 404 for an unknown, malformed or other organisation’s role id', async () => {
    const theirs = await http()
      .post('/api/roles')
      .set('cookie', other.cookie)
      .send({ name: 'Theirs', permissions: [] });
    const theirOwnerRole = (await builtInRoleIds(t.app.getHttpServer(), other.cookie)).owner;
    for (const id of [
      theirs.body.id,
      theirOwnerRole,
      '5b1f4a36-2b55-4b4e-9d3c-3f9b1f2a7c10',
      'not-a-uuid',
    ]) {
      const patch = await http()
        .patch(`/api/roles/${id}`)
        .set('cookie', owner.cookie)
        .send({ name: 'Mine now' });
      expect(patch.status).toBe(404);
      expect(patch.body).toMatchObject({ code: 'NOT_FOUND', message: 'Not found.' });
      expect((await http().delete(`/api/roles/${id}`).set('cookie', owner.cookie)).status).toBe(
        404,
      );
    }
    const still = await http().get('/api/roles').set('cookie', other.cookie);
    expect(still.body.roles.find((r: { id: string }) => r.id === theirs.body.id).name).toBe(
      'Theirs',
    );
  });

  it('lists roles to whoever may invite (member.invite) or manage roles (role.manage), and to nobody else', async () => {
    // The built-in Manager invites, so it must see the roles it can invite with (issue 17, item 4).
    const listed = await http().get('/api/roles').set('cookie', manager);
    expect(listed.status).toBe(200);
    expect(listed.body.roles.map((r: { name: string }) => r.name).slice(0, 3)).toEqual([
      'Owner',
      'Developer',
      'Manager',
    ]);
    const inviter = await memberWithPermissions(
      t.app.getHttpServer(),
      owner.cookie,
      ['member.invite'],
      'Ivy Inviter',
    );
    expect((await http().get('/api/roles').set('cookie', inviter.cookie)).status).toBe(200);
    const roleManager = await memberWithPermissions(
      t.app.getHttpServer(),
      owner.cookie,
      ['role.manage'],
      'Rob Roles',
    );
    expect((await http().get('/api/roles').set('cookie', roleManager.cookie)).status).toBe(200);
    const neither = await memberWithPermissions(
      t.app.getHttpServer(),
      owner.cookie,
      ['interrupt.read', 'member.manage'],
      'Nell Neither',
    );
    const refused = await http().get('/api/roles').set('cookie', neither.cookie);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      code: 'MISSING_PERMISSION',
      message: 'Missing permission: member.invite or role.manage.',
    });
  });

  it('answers 403 Missing permission: role.manage. to the built-in Manager changing roles', async () => {
    for (const res of [
      await http()
        .delete(
          `/api/roles/${(await builtInRoleIds(t.app.getHttpServer(), owner.cookie)).developer}`,
        )
        .set('cookie', manager),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({
        code: 'MISSING_PERMISSION',
        message: 'Missing permission: role.manage.',
      });
    }
  });

  it('answers 401 without a session', async () => {
    const res = await http().get('/api/roles');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'SIGN_IN_REQUIRED', message: 'Sign-in required.' });
  });

  it('answers 403 to a request carrying x-api-key, valid or not', async () => {
    const key = await createApiKey(t.app.getHttpServer(), owner.cookie);
    for (const value of [key.key, 'nonsense']) {
      const res = await http()
        .get('/api/roles')
        .set('x-api-key', value)
        .set('cookie', owner.cookie);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({
        code: 'HUMANS_ONLY',
        message: 'This endpoint is reserved for humans.',
      });
    }
  });

  describe('no privilege escalation', () => {
    let admin: string;
    let billingRoleId: string;

    beforeAll(async () => {
      const adminRole = await http()
        .post('/api/roles')
        .set('cookie', owner.cookie)
        .send({
          name: 'Role admins',
          permissions: ['role.manage', 'member.invite', 'auditLog.read', 'interrupt.read'],
        });
      admin = (
        await joinOrganisation(t.app.getHttpServer(), owner.cookie, adminRole.body.id, 'Rita Roles')
      ).cookie;
      const billing = await http()
        .post('/api/roles')
        .set('cookie', owner.cookie)
        .send({ name: 'Billing', permissions: ['billing.manage'] });
      billingRoleId = billing.body.id;
    });

    it('refuses to create a role holding a permission the creator lacks, naming the first one', async () => {
      const res = await http()
        .post('/api/roles')
        .set('cookie', admin)
        .send({
          name: 'Escalated',
          permissions: ['auditLog.read', 'billing.manage', 'role.manage', 'apiKey.create'],
        });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({
        code: 'MISSING_PERMISSION',
        message: 'Missing permission: billing.manage.',
      });
      const list = await http().get('/api/roles').set('cookie', owner.cookie);
      expect(list.body.roles.map((r: { name: string }) => r.name)).not.toContain('Escalated');
    });

    it('lets them create and update roles within their own permissions', async () => {
      const created = await http()
        .post('/api/roles')
        .set('cookie', admin)
        .send({ name: 'Readers', permissions: ['auditLog.read'] });
      expect(created.status).toBe(201);
      const widened = await http()
        .patch(`/api/roles/${created.body.id}`)
        .set('cookie', admin)
        .send({ permissions: ['auditLog.read', 'auditLog.export'] });
      expect(widened.status).toBe(403);
      expect(widened.body.message).toBe('Missing permission: auditLog.export.');
      const ok = await http()
        .patch(`/api/roles/${created.body.id}`)
        .set('cookie', admin)
        .send({ permissions: ['auditLog.read', 'interrupt.read'] });
      expect(ok.status).toBe(200);
    });

    it('refuses to change a role holding more than they do', async () => {
      const res = await http()
        .patch(`/api/roles/${billingRoleId}`)
        .set('cookie', admin)
        .send({ permissions: [] });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({
        code: 'MISSING_PERMISSION',
        message: 'Missing permission: billing.manage.',
      });
    });

    it('refuses to invite with a role holding more than they do', async () => {
      const res = await http()
        .post('/api/invitations')
        .set('cookie', admin)
        .send({ email: uniqueEmail(), roleId: billingRoleId });
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('Missing permission: billing.manage.');
    });
  });

  it('writes an audit entry for each change, and none for a refused one or a no-op', async () => {
    const org = await signUpOwner(t.app.getHttpServer());
    const created = await http()
      .post('/api/roles')
      .set('cookie', org.cookie)
      .send({ name: 'Reviewers', permissions: ['interrupt.read'] });
    await http()
      .post('/api/roles')
      .set('cookie', org.cookie)
      .send({ name: 'Reviewers', permissions: [] }); // 409
    await http()
      .patch(`/api/roles/${created.body.id}`)
      .set('cookie', org.cookie)
      .send({ name: 'Reviewers' }); // no-op
    await http()
      .patch(`/api/roles/${created.body.id}`)
      .set('cookie', org.cookie)
      .send({ permissions: ['interrupt.read', 'interrupt.decide'] });
    await http()
      .patch(`/api/roles/${created.body.id}`)
      .set('cookie', org.cookie)
      .send({ name: 'Deciders' });
    await http().delete(`/api/roles/${created.body.id}`).set('cookie', org.cookie);
    expect(await roleAudit(org.organisationId)).toEqual([
      {
        action: 'role.created',
        actor_name: 'Ada Lovelace',
        target_type: 'role',
        target_name: 'Reviewers',
        summary: 'Role Reviewers created by Ada Lovelace',
      },
      {
        action: 'role.updated',
        actor_name: 'Ada Lovelace',
        target_type: 'role',
        target_name: 'Reviewers',
        summary: 'Role Reviewers updated by Ada Lovelace',
      },
      {
        action: 'role.updated',
        actor_name: 'Ada Lovelace',
        target_type: 'role',
        target_name: 'Deciders',
        summary: 'Role Reviewers renamed to Deciders by Ada Lovelace',
      },
      {
        action: 'role.deleted',
        actor_name: 'Ada Lovelace',
        target_type: 'role',
        target_name: 'Deciders',
        summary: 'Role Deciders deleted by Ada Lovelace',
      },
    ]);
    const [entry] = await t.app
      .get(DataSource)
      .query(
        `SELECT metadata FROM audit_log_entries WHERE organisation_id = $1 AND action = 'role.updated' ORDER BY created_at LIMIT 1`,
        [org.organisationId],
      );
    expect(entry.metadata).toMatchObject({ added: ['interrupt.decide'], removed: [] });
  });
});
