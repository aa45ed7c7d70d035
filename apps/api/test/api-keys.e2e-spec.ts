import { execFileSync } from 'node:child_process';
import { Controller, Get, Module } from '@nestjs/common';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { MachineRoute } from '../src/auth/decorators/route-access.decorator';
import { adminDatabaseUrl } from './support/test-database';
import {
  builtInRoleIds,
  createApiKey,
  joinOrganisation,
  signUpOwner,
  SignedUpOwner,
} from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

@Controller('probe-machine')
class MachineProbeController {
  @Get()
  @MachineRoute()
  ok() {
    return { ok: true };
  }
}

@Module({ controllers: [MachineProbeController] })
class MachineProbeModule {}

const DAY = 24 * 60 * 60 * 1000;

describe('key management (SPEC §2, §6; seed 3.1)', () => {
  let t: TestApp;
  let owner: SignedUpOwner;
  const http = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    t = await startTestApp({ imports: [MachineProbeModule] });
    owner = await signUpOwner(t.app.getHttpServer(), { name: 'Ada Lovelace' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('create → use → rename (still works) → revoke (fails at once)', async () => {
    const created = await http()
      .post('/api/api-keys')
      .set('cookie', owner.cookie)
      .send({ name: 'ci-runner', expiry: 'never' });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(
      ['createdAt', 'expiresAt', 'id', 'key', 'lastUsedAt', 'name', 'start'].sort(),
    );
    const { id, key } = created.body;
    expect(key).toMatch(/^ilk_[A-Za-z]{64}$/);
    expect(created.body.start).toBe(key.slice(0, 8));
    expect(created.body.expiresAt).toBeNull();
    expect(created.body.lastUsedAt).toBeNull();

    expect((await http().get('/probe-machine').set('x-api-key', key)).status).toBe(200);

    const renamed = await http()
      .patch(`/api/api-keys/${id}`)
      .set('cookie', owner.cookie)
      .send({ name: 'deploy-bot' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id, name: 'deploy-bot', start: key.slice(0, 8) });
    expect(renamed.body.key).toBeUndefined();
    expect((await http().get('/probe-machine').set('x-api-key', key)).status).toBe(200);

    const revoked = await http().delete(`/api/api-keys/${id}`).set('cookie', owner.cookie);
    expect(revoked.status).toBe(204);
    const after = await http().get('/probe-machine').set('x-api-key', key);
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ code: 'INVALID_API_KEY', message: 'Invalid API key.' });
    expect(
      (await t.app.get(DataSource).query(`SELECT 1 FROM api_keys WHERE id = $1`, [id])).length,
    ).toBe(0);
    expect((await http().delete(`/api/api-keys/${id}`).set('cookie', owner.cookie)).status).toBe(
      404,
    );

    const audit = await t.app.get(DataSource).query(
      `SELECT action, actor_type, actor_id, actor_name, target_type, target_id, target_name, summary
           FROM audit_log_entries WHERE organisation_id = $1 AND target_id = $2 ORDER BY created_at`,
      [owner.organisationId, id],
    );
    expect(audit).toEqual([
      expect.objectContaining({
        action: 'api_key.created',
        actor_type: 'member',
        actor_id: owner.memberId,
        actor_name: 'Ada Lovelace',
        target_type: 'api_key',
        target_name: 'ci-runner',
        summary: 'Key ci-runner created by Ada Lovelace',
      }),
      expect.objectContaining({
        action: 'api_key.renamed',
        target_name: 'deploy-bot',
        summary: 'Key ci-runner renamed to deploy-bot by Ada Lovelace',
      }),
      expect.objectContaining({
        action: 'api_key.revoked',
        target_name: 'deploy-bot',
        summary: 'Key deploy-bot revoked by Ada Lovelace',
      }),
    ]);
  });

  it.each([
    ['7d', 7],
    ['30d', 30],
    ['90d', 90],
  ] as const)('a %s key expires exactly that far from its creation', async (expiry, days) => {
    const key = await createApiKey(t.app.getHttpServer(), owner.cookie, {
      name: `exp-${expiry}`,
      expiry,
    });
    expect(Date.parse(key.expiresAt as string) - Date.parse(key.createdAt)).toBe(days * DAY);
    const [row] = await t.app
      .get(DataSource)
      .query(`SELECT created_at, expires_at FROM api_keys WHERE id = $1`, [key.id]);
    expect(row.expires_at.getTime() - row.created_at.getTime()).toBe(days * DAY);
  });

  it('lists keys with the SPEC fields only, newest first', async () => {
    const a = await createApiKey(t.app.getHttpServer(), owner.cookie, { name: 'list-a' });
    const b = await createApiKey(t.app.getHttpServer(), owner.cookie, {
      name: 'list-b',
      expiry: '30d',
    });
    const res = await http().get('/api/api-keys').set('cookie', owner.cookie);
    expect(res.status).toBe(200);
    const ids = res.body.apiKeys.map((k: { id: string }) => k.id);
    expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(a.id));
    for (const k of res.body.apiKeys) {
      expect(Object.keys(k).sort()).toEqual([
        'createdAt',
        'expiresAt',
        'id',
        'lastUsedAt',
        'name',
        'start',
      ]);
    }
  });

  it.each([
    [{ name: '', expiry: 'never' }, 'name'],
    [{ name: 'x'.repeat(33), expiry: 'never' }, 'name'],
    [{ name: '   ', expiry: 'never' }, 'name'],
    [{ expiry: 'never' }, 'name'],
    [{ name: 'ok', expiry: '14d' }, 'expiry'],
    [{ name: 'ok' }, 'expiry'],
    [{ name: 'ok', expiry: 'never', role: 'admin' }, 'role'],
  ])('refuses %j with 400 naming %s', async (body, field) => {
    const res = await http().post('/api/api-keys').set('cookie', owner.cookie).send(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.message).toContain(field);
  });

  it('accepts a 32-character name and refuses expiry changes on rename', async () => {
    const key = await createApiKey(t.app.getHttpServer(), owner.cookie, { name: 'x'.repeat(32) });
    const res = await http()
      .patch(`/api/api-keys/${key.id}`)
      .set('cookie', owner.cookie)
      .send({ name: 'n', expiry: '7d' });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('expiry');
  });

  it("answers 404 for another organisation's key, and changes nothing", async () => {
    const other = await signUpOwner(t.app.getHttpServer(), { name: 'Grace Hopper' });
    const theirs = await createApiKey(t.app.getHttpServer(), other.cookie, { name: 'theirs' });
    expect(
      (
        await http()
          .patch(`/api/api-keys/${theirs.id}`)
          .set('cookie', owner.cookie)
          .send({ name: 'mine' })
      ).status,
    ).toBe(404);
    expect(
      (await http().delete(`/api/api-keys/${theirs.id}`).set('cookie', owner.cookie)).status,
    ).toBe(404);
    expect(
      (
        await http()
          .patch('/api/api-keys/not-a-uuid')
          .set('cookie', owner.cookie)
          .send({ name: 'x' })
      ).status,
    ).toBe(404);
    const list = await http().get('/api/api-keys').set('cookie', other.cookie);
    expect(list.body.apiKeys).toEqual([expect.objectContaining({ id: theirs.id, name: 'theirs' })]);
    expect((await http().get('/probe-machine').set('x-api-key', theirs.key)).status).toBe(200);
  });

  it('records lastUsedAt in the background, not once per request', async () => {
    const key = await createApiKey(t.app.getHttpServer(), owner.cookie, { name: 'used' });
    for (let i = 0; i < 5; i++)
      expect((await http().get('/probe-machine').set('x-api-key', key.key)).status).toBe(200);
    let lastUsedAt: string | null = null;
    for (let i = 0; i < 40 && lastUsedAt === null; i++) {
      await new Promise((r) => setTimeout(r, 250));
      const list = await http().get('/api/api-keys').set('cookie', owner.cookie);
      lastUsedAt = list.body.apiKeys.find((k: { id: string }) => k.id === key.id).lastUsedAt;
    }
    expect(lastUsedAt).not.toBeNull();
    expect(Date.now() - Date.parse(lastUsedAt as string)).toBeLessThan(60_000);
  });

  it('never stores or logs the full key (database dump and log lines searched)', async () => {
    const key = await createApiKey(t.app.getHttpServer(), owner.cookie, { name: 'secret-check' });
    await http().get('/probe-machine').set('x-api-key', key.key);
    await http().get('/api/api-keys').set('cookie', owner.cookie).expect(200);
    const list = await http().get('/api/api-keys').set('cookie', owner.cookie);
    expect(JSON.stringify(list.body)).not.toContain(key.key);
    expect(JSON.stringify(t.logs)).not.toContain(key.key);
    expect(JSON.stringify(t.logs)).not.toContain(key.key.slice(8));

    const url = new URL(adminDatabaseUrl());
    const dump = execFileSync(
      'pg_dump',
      [
        '--data-only',
        '-h',
        url.hostname,
        '-p',
        url.port,
        '-U',
        url.username || 'postgres',
        t.database.name,
      ],
      { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
    expect(dump).toContain(key.id);
    expect(dump).not.toContain(key.key);
    expect(dump).not.toContain(key.key.slice(8));
  });

  describe('permissions (SPEC §2)', () => {
    it('a Manager lists keys but cannot create, rename or revoke them', async () => {
      const server = t.app.getHttpServer();
      const manager = await joinOrganisation(
        server,
        owner.cookie,
        (await builtInRoleIds(server, owner.cookie)).manager,
        'Mona Manager',
      );
      const key = await createApiKey(server, owner.cookie, { name: 'managed' });
      const list = await http().get('/api/api-keys').set('cookie', manager.cookie);
      expect(list.status).toBe(200);
      expect(list.body.apiKeys.map((k: { id: string }) => k.id)).toContain(key.id);
      const refusals = [
        [
          await http()
            .post('/api/api-keys')
            .set('cookie', manager.cookie)
            .send({ name: 'nope', expiry: 'never' }),
          'apiKey.create',
        ],
        [
          await http()
            .patch(`/api/api-keys/${key.id}`)
            .set('cookie', manager.cookie)
            .send({ name: 'nope' }),
          'apiKey.update',
        ],
        [
          await http().delete(`/api/api-keys/${key.id}`).set('cookie', manager.cookie),
          'apiKey.delete',
        ],
      ] as const;
      for (const [res, permission] of refusals) {
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject({
          code: 'MISSING_PERMISSION',
          message: `Missing permission: ${permission}.`,
        });
      }
      expect((await http().get('/probe-machine').set('x-api-key', key.key)).status).toBe(200);
      const names = (
        await http().get('/api/api-keys').set('cookie', owner.cookie)
      ).body.apiKeys.map((k: { name: string }) => k.name);
      expect(names).toContain('managed');
      expect(names).not.toContain('nope');
    });

    it('a custom role with only apiKey.create can create, and nothing else', async () => {
      const server = t.app.getHttpServer();
      const role = await http()
        .post('/api/roles')
        .set('cookie', owner.cookie)
        .send({ name: 'Key minter', permissions: ['apiKey.create'] });
      expect(role.status).toBe(201);
      const minter = await joinOrganisation(server, owner.cookie, role.body.id, 'Kim Minter');
      const created = await http()
        .post('/api/api-keys')
        .set('cookie', minter.cookie)
        .send({ name: 'minted', expiry: '7d' });
      expect(created.status).toBe(201);
      expect(created.body.key).toMatch(/^ilk_/);
      const list = await http().get('/api/api-keys').set('cookie', minter.cookie);
      expect(list.body).toMatchObject({
        code: 'MISSING_PERMISSION',
        message: 'Missing permission: apiKey.read.',
      });
      expect(
        (await http().delete(`/api/api-keys/${created.body.id}`).set('cookie', minter.cookie))
          .status,
      ).toBe(403);
    });

    it('a Developer holds all four key permissions', async () => {
      const server = t.app.getHttpServer();
      const dev = await joinOrganisation(
        server,
        owner.cookie,
        (await builtInRoleIds(server, owner.cookie)).developer,
        'Dev',
      );
      const key = await createApiKey(server, dev.cookie, { name: 'dev-key' });
      expect((await http().get('/api/api-keys').set('cookie', dev.cookie)).status).toBe(200);
      expect(
        (
          await http()
            .patch(`/api/api-keys/${key.id}`)
            .set('cookie', dev.cookie)
            .send({ name: 'dev-key-2' })
        ).status,
      ).toBe(200);
      expect(
        (await http().delete(`/api/api-keys/${key.id}`).set('cookie', dev.cookie)).status,
      ).toBe(204);
    });
  });
});
