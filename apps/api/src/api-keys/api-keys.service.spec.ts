import { hashApiKey } from '@interlock/api-keys';
import { DomainError, type MemberActor } from '@interlock/domain';
import type { MemberCall } from '../auth/caller';
import type { AppConfig } from '../config/app-config';
import { InProcessNotificationBus } from '../notifications/notification-bus';
import { AUTH_CHANNEL } from './api-key-cache';
import type { ApiKeyRow, ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';
import { fakeDataSource } from '../database/testing/fake-data-source';

// The service's rules over a fake repository and a fake transaction: what it asks the owner of
// the table, which audit entries it writes (the audit writer's INSERTs, recorded) and what it
// announces to the other instances.
const ORG = '6c0f7a52-93a3-4d55-9e4b-7c2b3f1a0e11';
const ada: MemberActor = { type: 'member', id: 'u-ada', name: 'Ada Lovelace' };
const byAda: MemberCall = { organisationId: ORG, actor: ada, ip: null };
const config = { apiKeyPrefix: 'il_', apiKeyPepper: 'p'.repeat(32) } as AppConfig;
const ci: ApiKeyRow = {
  id: 'k-1',
  name: 'ci',
  start: 'il_abcd',
  created_at: new Date('2026-11-22T00:00:00.000Z'),
  expires_at: null,
  last_used_at: null,
};

function setUp(overrides: Partial<Record<keyof ApiKeysRepository, jest.Mock>> = {}) {
  const { dataSource, audit } = fakeDataSource();
  const repository = {
    listLive: jest.fn(async () => [ci]),
    insert: jest.fn(async () => undefined),
    lockLive: jest.fn(async () => ({ name: 'ci' })),
    rename: jest.fn(async (_db: unknown, _org: string, _id: string, name: string) => ({
      ...ci,
      name,
    })),
    delete: jest.fn(async () => ({ name: 'ci', start: 'il_abcd' })),
    ...overrides,
  } as unknown as ApiKeysRepository;
  const bus = new InProcessNotificationBus();
  const announced: string[] = [];
  bus.subscribe(AUTH_CHANNEL, (payload) => announced.push(payload));
  const actions = () => audit.map((entry) => entry.action);
  return {
    service: new ApiKeysService(dataSource, repository, bus, config),
    repository,
    actions,
    announced,
  };
}

describe('ApiKeysService', () => {
  it('creates a key, stores only its peppered hash, and audits the creation with its expiry', async () => {
    const { service, repository, actions } = setUp();
    const created = await service.create(byAda, 'deploy', '7d');
    expect(created.key.startsWith('il_')).toBe(true);
    expect(created.start).toBe(created.key.slice(0, created.start.length));
    expect(Date.parse(created.expiresAt ?? '') - Date.parse(created.createdAt)).toBe(
      7 * 24 * 60 * 60 * 1000,
    );
    const insert = repository.insert as jest.Mock;
    expect(insert).toHaveBeenCalledWith(
      expect.anything(),
      ORG,
      expect.objectContaining({ id: created.id, name: 'deploy', createdBy: ada.id }),
    );
    const stored = insert.mock.calls[0][2] as { keyHash: string };
    expect(stored.keyHash).toBe(hashApiKey(created.key, config.apiKeyPepper));
    expect(JSON.stringify(insert.mock.calls[0])).not.toContain(created.key);
    expect(actions()).toEqual(['api_key.created']);
  });

  it('renames, audits only a change of name, and announces the key either way', async () => {
    const same = setUp();
    expect((await same.service.rename(byAda, 'k-1', 'ci')).name).toBe('ci');
    expect(same.actions()).toEqual([]);
    expect(same.announced).toEqual(['key:k-1']);
    const renamed = setUp();
    expect((await renamed.service.rename(byAda, 'k-1', 'deploy')).name).toBe('deploy');
    expect(renamed.repository.rename).toHaveBeenCalledWith(expect.anything(), ORG, 'k-1', 'deploy');
    expect(renamed.actions()).toEqual(['api_key.renamed']);
  });

  it("answers 404 for a key that is expired or not the organisation's, before changing anything", async () => {
    const { service, repository, actions, announced } = setUp({
      lockLive: jest.fn(async () => undefined),
    });
    const error = await service.rename(byAda, 'nope', 'x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    expect(repository.rename).not.toHaveBeenCalled();
    expect(actions()).toEqual([]);
    expect(announced).toEqual([]);
  });

  it('revokes with the key start in the audit entry and announces it; an unknown key is 404 and announces nothing', async () => {
    const revoked = setUp();
    await revoked.service.revoke({ ...byAda, ip: '203.0.113.7' }, 'k-1');
    expect(revoked.repository.delete).toHaveBeenCalledWith(expect.anything(), ORG, 'k-1');
    expect(revoked.actions()).toEqual(['api_key.revoked']);
    expect(revoked.announced).toEqual(['key:k-1']);
    const unknown = setUp({ delete: jest.fn(async () => undefined) });
    await expect(unknown.service.revoke(byAda, 'nope')).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(unknown.actions()).toEqual([]);
    expect(unknown.announced).toEqual([]);
  });

  it('lists what the repository lists, as the API shows it', async () => {
    const { service, repository } = setUp();
    expect(await service.list(ORG)).toEqual([
      {
        id: 'k-1',
        name: 'ci',
        start: 'il_abcd',
        createdAt: '2026-11-22T00:00:00.000Z',
        expiresAt: null,
        lastUsedAt: null,
      },
    ]);
    expect(repository.listLive).toHaveBeenCalledWith(expect.anything(), ORG);
  });
});
