import { createHash, randomBytes, randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { BUILT_IN_ROLES } from '@interlock/domain';
import { generateApiKey, hashApiKey } from '@interlock/api-keys';
import { verifyAuditChain, writeAuditRecord } from '@interlock/audit';
import { hashPassword } from '../src/auth/password.util';
import { createDataSource } from '../src/database/data-source';
import { MIGRATIONS } from '../src/database/migrations';
import { createTestDatabase, TestDatabase } from './support/test-database';
import { startTestApp, TestApp } from './support/test-app';

const PEPPER = 'test-pepper-0123456789-0123456789-0123456789';
const MIGRATION = 'UsersAndMemberships1795390000000';

interface OldMember {
  id: string;
  email: string;
  name: string;
  password: string;
  roleId: string;
  roleName: string;
  /** A signed-in browser's cookie value (the session row holds its SHA-256). */
  token: string;
}

interface OldOrganisation {
  id: string;
  name: string;
  members: OldMember[];
  key: string;
  teamId: string;
  interruptId: string;
  pendingToken: string;
  expiredToken: string;
  /** The cookie value of an expired sign-in session. */
  expiredSession: string;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * Writes, with the previous schema's SQL (as the service before this migration wrote it), an
 * organisation with four members (the built-in roles and a custom one), their sign-in sessions,
 * a team, invitations, a key, an interrupt assigned to a member and decided by another, and the
 * audit entries of it all.
 */
async function seedOldOrganisation(ds: DataSource, label: string): Promise<OldOrganisation> {
  const id = randomUUID();
  const name = `Org ${label}`;
  return ds.transaction(async (tx) => {
    await tx.query(`INSERT INTO organisations (id, name, plan) VALUES ($1, $2, 'free')`, [
      id,
      name,
    ]);
    const roles: { id: string; name: string }[] = [];
    for (const role of Object.values(BUILT_IN_ROLES)) {
      const roleId = randomUUID();
      await tx.query(
        `INSERT INTO roles (organisation_id, id, name, permissions, built_in) VALUES ($1, $2, $3, $4, $5)`,
        [id, roleId, role.name, [...role.permissions], role.key],
      );
      roles.push({ id: roleId, name: role.name });
    }
    const customId = randomUUID();
    await tx.query(
      `INSERT INTO roles (organisation_id, id, name, permissions) VALUES ($1, $2, $3, $4)`,
      [id, customId, `Reviewers ${label}`, ['interrupt.read', 'interrupt.decide']],
    );
    roles.push({ id: customId, name: `Reviewers ${label}` });

    const members: OldMember[] = [];
    for (const [i, role] of roles.entries()) {
      const member: OldMember = {
        id: randomUUID(),
        email: `${['owner', 'dev', 'manager', 'reviewer'][i]}-${label.toLowerCase()}@old.example.test`,
        name: `${['Olive', 'Devi', 'Manu', 'Remy'][i]} ${label}`,
        password: `password of ${label} ${i}`,
        roleId: role.id,
        roleName: role.name,
        token: randomBytes(32).toString('base64url'),
      };
      // Created a minute apart, so the listing order is the joining order.
      await tx.query(
        `INSERT INTO members (organisation_id, id, email, name, password_hash, role_id, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, now() - make_interval(mins => $7))`,
        [
          id,
          member.id,
          member.email,
          member.name,
          await hashPassword(member.password),
          role.id,
          10 - i,
        ],
      );
      await tx.query(
        `INSERT INTO member_sessions (organisation_id, id, member_id, token_hash, expires_at) VALUES ($1, $2, $3, $4, now() + interval '30 days')`,
        [id, randomUUID(), member.id, sha256(member.token)],
      );
      members.push(member);
    }
    const [owner, dev, manager, reviewer] = members;
    // An expired session reads as signed out, before and after.
    const expiredSession = randomBytes(32).toString('base64url');
    await tx.query(
      `INSERT INTO member_sessions (organisation_id, id, member_id, token_hash, expires_at) VALUES ($1, $2, $3, $4, now() - interval '1 day')`,
      [id, randomUUID(), reviewer.id, sha256(expiredSession)],
    );
    await writeAuditRecord(tx, {
      organisationId: id,
      action: 'organisation.created',
      actor: { type: 'member', id: owner.id, name: owner.name },
      target: { type: 'organisation', id, name },
      summary: `Organisation ${name} created by ${owner.name}`,
      metadata: { plan: 'free' },
    });
    for (const m of [dev, manager, reviewer]) {
      await writeAuditRecord(tx, {
        organisationId: id,
        action: 'member.joined',
        actor: { type: 'member', id: m.id, name: m.name },
        target: { type: 'user', id: m.id, name: m.name },
        summary: `${m.name} joined as ${m.roleName}`,
      });
    }

    const teamId = randomUUID();
    await tx.query(`INSERT INTO teams (organisation_id, id, name) VALUES ($1, $2, $3)`, [
      id,
      teamId,
      `Team ${label}`,
    ]);
    for (const m of [dev, reviewer]) {
      await tx.query(
        `INSERT INTO team_members (organisation_id, team_id, member_id) VALUES ($1, $2, $3)`,
        [id, teamId, m.id],
      );
    }

    const pendingToken = randomBytes(32).toString('base64url');
    const expiredToken = randomBytes(32).toString('base64url');
    for (const [token, expires, accepted] of [
      [pendingToken, `now() + interval '7 days'`, null],
      [expiredToken, `now() - interval '1 day'`, null],
      [randomBytes(32).toString('base64url'), `now() + interval '6 days'`, 'now()'],
    ] as const) {
      await tx.query(
        `INSERT INTO invitations (organisation_id, id, email, role_id, token_hash, invited_by, expires_at, accepted_at)
         VALUES ($1, $2, $3, $4, $5, $6, ${expires}, ${accepted ?? 'NULL'})`,
        [
          id,
          randomUUID(),
          `${randomBytes(3).toString('hex')}-invitee-${label.toLowerCase()}@old.example.test`,
          roles[2].id,
          sha256(token),
          owner.id,
        ],
      );
    }

    const key = generateApiKey('ilk_');
    const keyId = randomUUID();
    await tx.query(
      `INSERT INTO api_keys (organisation_id, id, name, start, key_hash, created_by, created_at) VALUES ($1, $2, $3, $4, $5, $6, now())`,
      [id, keyId, `key ${label}`, key.slice(0, 8), hashApiKey(key, PEPPER), owner.id],
    );

    const interruptId = randomUUID();
    await tx.query(
      `INSERT INTO interrupts (organisation_id, id, title, action_requests, opened_by_key_id, assignee_type, assignee_id, assignee_name)
       VALUES ($1, $2, $3, $4, $5, 'member', $6, $7)`,
      [
        id,
        interruptId,
        `Deploy ${label}`,
        JSON.stringify([
          {
            name: 'deploy',
            args: {},
            description: null,
            allowedDecisions: ['approve', 'edit', 'reject', 'respond'],
          },
          {
            name: 'notify',
            args: {},
            description: null,
            allowedDecisions: ['approve', 'edit', 'reject', 'respond'],
          },
        ]),
        keyId,
        dev.id,
        dev.name,
      ],
    );
    await tx.query(
      `INSERT INTO interrupt_decisions (organisation_id, id, interrupt_id, action_name, decision, decided_by_id, decided_by_name)
       VALUES ($1, $2, $3, 'deploy', 'approve', $4, $5)`,
      [id, randomUUID(), interruptId, manager.id, manager.name],
    );
    await writeAuditRecord(tx, {
      organisationId: id,
      action: 'interrupt.decided',
      actor: { type: 'member', id: manager.id, name: manager.name },
      target: { type: 'interrupt', id: interruptId, name: `Deploy ${label}` },
      summary: `Action deploy of interrupt Deploy ${label} approved by ${manager.name}`,
      metadata: { actionName: 'deploy', decision: 'approve', becameAnswered: false },
    });
    return {
      id,
      name,
      members,
      key,
      teamId,
      interruptId,
      pendingToken,
      expiredToken,
      expiredSession,
    };
  });
}

/** What the previous schema holds, read with its own SQL (for comparing after a round trip). */
async function oldSchemaSnapshot(ds: DataSource): Promise<unknown> {
  return {
    members: await ds.query(
      `SELECT organisation_id, id, email, name, password_hash, role_id, created_at FROM members ORDER BY id`,
    ),
    sessions: await ds.query(
      `SELECT organisation_id, id, member_id, token_hash, created_at, expires_at FROM member_sessions WHERE expires_at > now() ORDER BY id`,
    ),
    teamMembers: await ds.query(
      `SELECT organisation_id, team_id, member_id, created_at FROM team_members ORDER BY team_id, member_id`,
    ),
  };
}

// Issue 18: a database of the schema before users and memberships, holding several
// organisations, migrates in place — and everything reads back the same through the API.
describe(`the ${MIGRATION} migration`, () => {
  let db: TestDatabase;
  let t: TestApp;
  let orgs: OldOrganisation[];
  let before: { audit: unknown[]; snapshot: unknown; counts: unknown };
  const http = () => request(t.app.getHttpServer());
  const cookieOf = (m: OldMember) => `session=${m.token}`;

  const counts = (ds: DataSource) =>
    ds.query(`SELECT (SELECT count(*)::int FROM interrupts) AS interrupts, (SELECT count(*)::int FROM interrupt_decisions) AS decisions,
                     (SELECT count(*)::int FROM api_keys) AS keys, (SELECT count(*)::int FROM invitations) AS invitations,
                     (SELECT count(*)::int FROM team_members) AS team_members, (SELECT count(*)::int FROM roles) AS roles`);

  beforeAll(async () => {
    db = await createTestDatabase();
    const at = MIGRATIONS.findIndex((m) => m.name === MIGRATION);
    expect(at).toBeGreaterThan(0);
    const old = new DataSource({
      ...createDataSource({ url: db.url, poolSize: 2 }).options,
      migrations: MIGRATIONS.slice(0, at),
    });
    await old.initialize();
    try {
      await old.runMigrations({ transaction: 'each' });
      orgs = [];
      for (const label of ['A', 'B', 'C']) orgs.push(await seedOldOrganisation(old, label));
      before = {
        audit: await old.query(`SELECT * FROM audit_log_entries ORDER BY organisation_id, seq`),
        snapshot: await oldSchemaSnapshot(old),
        counts: await counts(old),
      };
    } finally {
      await old.destroy();
    }
    // The service applies the pending migration at start, as an upgrade does.
    t = await startTestApp({ databaseUrl: db.url });
  });
  afterAll(async () => {
    await t?.close();
    await db.drop();
  });

  it('is the first migration the upgrade applied; the rest of the data is untouched', async () => {
    const ds = t.app.get(DataSource);
    const applied: { name: string }[] = await ds.query(`SELECT name FROM migrations ORDER BY id`);
    const at = MIGRATIONS.findIndex((m) => m.name === MIGRATION);
    expect(applied.slice(at).map((m) => m.name)).toEqual(MIGRATIONS.slice(at).map((m) => m.name));
    // Later migrations may add columns (entry_json, left NULL for entries already there; the
    // version of its renderer, entry_render_version).
    const audit: Record<string, unknown>[] = await ds.query(
      `SELECT * FROM audit_log_entries ORDER BY organisation_id, seq`,
    );
    expect(
      audit.map(({ entry_json, entry_render_version: _version, ...columns }) =>
        entry_json === null ? columns : { ...columns, entry_json },
      ),
    ).toEqual(before.audit);
    expect(await counts(ds)).toEqual(before.counts);
    for (const org of orgs) expect(await verifyAuditChain(ds, org.id)).toMatchObject({ ok: true });
    const [{ users, memberships }] = await ds.query(
      `SELECT (SELECT count(*)::int FROM users) AS users, (SELECT count(*)::int FROM memberships WHERE left_at IS NULL) AS memberships`,
    );
    expect({ users, memberships }).toEqual({ users: 12, memberships: 12 });
  });

  it('keeps everyone signed in: each old cookie acts for its organisation with the same id and role', async () => {
    for (const org of orgs) {
      for (const m of org.members) {
        const res = await http().get('/api/auth/session').set('cookie', cookieOf(m));
        expect(res.status).toBe(200);
        expect(res.body.member).toEqual({
          id: m.id,
          email: m.email,
          name: m.name,
          roleId: m.roleId,
          roleName: m.roleName,
        });
        expect(res.body.organisation).toMatchObject({ id: org.id, name: org.name, plan: 'free' });
      }
      const expired = await http()
        .get('/api/auth/session')
        .set('cookie', `session=${org.expiredSession}`);
      expect(expired.status).toBe(401);
    }
  });

  it('signs in with the old passwords; each person is a member of their one organisation', async () => {
    for (const org of orgs) {
      const m = org.members[1];
      const res = await http()
        .post('/api/auth/sign-in')
        .send({ email: m.email, password: m.password });
      expect(res.status).toBe(200);
      // Accounts from before verification existed count as verified (SPEC §8f).
      expect(res.body.user).toEqual({
        id: m.id,
        email: m.email,
        name: m.name,
        emailVerified: true,
      });
      expect(res.body.organisations).toEqual([
        {
          id: org.id,
          name: org.name,
          plan: 'free',
          roleId: m.roleId,
          roleName: m.roleName,
          joinedAt: expect.any(String),
        },
      ]);
    }
  });

  it('lists the same members, teams, interrupts, keys and invitations', async () => {
    const snapshot = before.snapshot as {
      members: {
        organisation_id: string;
        id: string;
        email: string;
        name: string;
        role_id: string;
        created_at: Date;
      }[];
    };
    for (const org of orgs) {
      const owner = cookieOf(org.members[0]);
      const members = await http().get('/api/members').set('cookie', owner);
      expect(members.body.members).toEqual(
        snapshot.members
          .filter((m) => m.organisation_id === org.id)
          .sort((x, y) => x.created_at.getTime() - y.created_at.getTime())
          .map((m) => ({
            id: m.id,
            email: m.email,
            name: m.name,
            roleId: m.role_id,
            roleName: org.members.find((o) => o.id === m.id)?.roleName,
            createdAt: m.created_at.toISOString(),
          })),
      );
      const teams = await http().get('/api/teams').set('cookie', owner);
      expect(teams.body.teams).toEqual([
        expect.objectContaining({
          id: org.teamId,
          memberIds: expect.arrayContaining([org.members[1].id, org.members[3].id]),
        }),
      ]);
      const interrupt = await http().get(`/api/interrupts/${org.interruptId}`).set('cookie', owner);
      expect(interrupt.body.assignee).toEqual({
        type: 'member',
        id: org.members[1].id,
        name: org.members[1].name,
      });
      expect(interrupt.body.decisions).toEqual([
        expect.objectContaining({
          actionName: 'deploy',
          decidedBy: { type: 'member', id: org.members[2].id, name: org.members[2].name },
        }),
      ]);
      // Audit entries' actors still name members by the same id.
      const byManager = await http()
        .get(`/api/audit-log?actorId=${org.members[2].id}`)
        .set('cookie', owner);
      expect(byManager.body.entries.map((e: { action: string }) => e.action)).toEqual([
        'interrupt.decided',
        'member.joined',
      ]);
      // The key works, and the invitations are listed as they were (the expired one hidden).
      const whoami = await http().get('/api/whoami').set('x-api-key', org.key);
      expect(whoami.body.organisationId).toBe(org.id);
      const invitations = await http().get('/api/invitations').set('cookie', owner);
      expect(invitations.body.invitations).toHaveLength(2);
      expect((await http().get(`/api/invitations/${org.expiredToken}/preview`)).status).toBe(404);
    }
  });

  it('the people carried over act as before: a pending invitation is accepted, a member is removed, a decision made', async () => {
    const [a, b] = orgs;
    const preview = await http().get(`/api/invitations/${a.pendingToken}/preview`);
    expect(preview.body).toMatchObject({ organisationName: a.name, roleName: 'Manager' });
    const joined = await http()
      .post(`/api/invitations/${a.pendingToken}/accept`)
      .send({ name: 'New Person', password: 'a new password' });
    expect(joined.status).toBe(201);
    // An old member of B is invited into A and joins with the account the migration made.
    const bDev = b.members[1];
    const invited = await http()
      .post('/api/invitations')
      .set('cookie', cookieOf(a.members[0]))
      .send({ email: bDev.email, roleId: a.members[3].roleId });
    expect(invited.status).toBe(201);
    expect(
      (
        await http()
          .post(`/api/invitations/${invited.body.token}/join`)
          .set('cookie', cookieOf(bDev))
      ).status,
    ).toBe(201);
    const both = await http().get('/api/me').set('cookie', cookieOf(bDev));
    expect(both.body.organisations.map((o: { id: string }) => o.id).sort()).toEqual(
      [a.id, b.id].sort(),
    );
    const decided = await http()
      .post(`/api/interrupts/${a.interruptId}/decisions`)
      .set('cookie', cookieOf(bDev))
      .set('x-organisation-id', a.id)
      .send({ actionName: 'notify', decision: 'approve' });
    expect(decided.status).toBe(201);
    expect(decided.body.status).toBe('answered');
    expect(
      decided.body.decisions.map((d: { decidedBy: { id: string } }) => d.decidedBy.id),
    ).toEqual([a.members[2].id, bDev.id]);
    const removed = await http()
      .delete(`/api/members/${a.members[3].id}`)
      .set('cookie', cookieOf(a.members[0]));
    expect(removed.status).toBe(204);
    expect(
      (await http().get('/api/teams').set('cookie', cookieOf(a.members[0]))).body.teams[0]
        .memberIds,
    ).toEqual([a.members[1].id]);
  });

  it('reverts while every user belongs to one organisation, back to the same members and sessions', async () => {
    const fresh = await createTestDatabase();
    try {
      const at = MIGRATIONS.findIndex((m) => m.name === MIGRATION);
      const old = new DataSource({
        ...createDataSource({ url: fresh.url, poolSize: 2 }).options,
        migrations: MIGRATIONS.slice(0, at + 1),
      });
      await old.initialize();
      try {
        await old.runMigrations({ transaction: 'each' });
        await old.undoLastMigration({ transaction: 'each' });
        for (const label of ['D', 'E']) await seedOldOrganisation(old, label);
        const snapshot = await oldSchemaSnapshot(old);
        await old.runMigrations({ transaction: 'each' });
        await old.undoLastMigration({ transaction: 'each' });
        expect(await oldSchemaSnapshot(old)).toEqual(snapshot);

        // With a user in two organisations, the previous schema cannot hold them: refused.
        await old.runMigrations({ transaction: 'each' });
        const [user] = await old.query(`SELECT id FROM users LIMIT 1`);
        const [other] = await old.query(
          `SELECT o.id, r.id AS role_id FROM organisations o JOIN roles r ON r.organisation_id = o.id AND r.built_in = 'manager'
            WHERE o.id NOT IN (SELECT organisation_id FROM memberships WHERE user_id = $1) LIMIT 1`,
          [user.id],
        );
        await old.query(
          `INSERT INTO memberships (organisation_id, user_id, role_id) VALUES ($1, $2, $3)`,
          [other.id, user.id, other.role_id],
        );
        await expect(old.undoLastMigration({ transaction: 'each' })).rejects.toThrow(
          /1 users are members of several organisations/,
        );
      } finally {
        await old.destroy();
      }
    } finally {
      await fresh.drop();
    }
  });
});
