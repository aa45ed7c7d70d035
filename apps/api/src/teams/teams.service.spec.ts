import type { DataSource } from 'typeorm';
import type { MemberCall } from '../auth/caller';
import { DomainError, type MemberActor } from '@interlock/domain';
import type { TeamRow, TeamsRepository } from './teams.repository';
import { TeamsService } from './teams.service';

// The service's rules over a fake repository and a fake transaction: what it asks the owner of
// the tables, and which audit entries it writes (the audit writer's INSERTs, recorded).
const ORG = '6c0f7a52-93a3-4d55-9e4b-7c2b3f1a0e11';
const ada: MemberActor = { type: 'member', id: 'u-ada', name: 'Ada Lovelace' };
const byAda: MemberCall = { organisationId: ORG, actor: ada, ip: null };
const bob = { id: 'u-bob', name: 'Bob' };
const ops: TeamRow = {
  id: 't-1',
  name: 'Ops',
  member_ids: [],
  created_at: new Date('2026-11-22T00:00:00.000Z'),
};

function setUp(overrides: Partial<Record<keyof TeamsRepository, jest.Mock>> = {}) {
  const audit: unknown[][] = [];
  const tx = {
    // The membership lock (memberships' own statement) finds Bob; every other statement is the audit writer's.
    query: jest.fn(async (sql: string, params: unknown[]) =>
      sql.includes('FROM memberships') ? [bob] : (audit.push(params), []),
    ),
  };
  const dataSource = {
    transaction: async (work: (t: typeof tx) => Promise<unknown>) => work(tx),
  } as unknown as DataSource;
  const repository = {
    lock: jest.fn(async () => ({ id: ops.id, name: ops.name })),
    read: jest.fn(async () => ops),
    rename: jest.fn(async () => true),
    insert: jest.fn(async () => ({ id: 't-2', name: 'SRE', created_at: ops.created_at })),
    memberCount: jest.fn(async () => 2),
    delete: jest.fn(async () => undefined),
    setMember: jest.fn(async () => true),
    ...overrides,
  } as unknown as TeamsRepository;
  const actions = () => audit.map((params) => params[2]);
  return { service: new TeamsService(dataSource, repository), repository, actions };
}

describe('TeamsService', () => {
  it('creates a team and audits it; a taken name is a 409 and writes nothing', async () => {
    const { service, actions } = setUp();
    expect(await service.create(byAda, 'SRE')).toEqual({
      id: 't-2',
      name: 'SRE',
      memberIds: [],
      createdAt: '2026-11-22T00:00:00.000Z',
    });
    expect(actions()).toEqual(['team.created']);
    const taken = setUp({ insert: jest.fn(async () => undefined) });
    await expect(taken.service.create(byAda, 'Ops')).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'A team with this name already exists.',
    });
    expect(taken.actions()).toEqual([]);
  });

  it('renames only when the name changes, and audits only then', async () => {
    const same = setUp();
    await same.service.rename(byAda, ops.id, 'Ops');
    expect(same.repository.rename).not.toHaveBeenCalled();
    expect(same.actions()).toEqual([]);
    const renamed = setUp();
    await renamed.service.rename(byAda, ops.id, 'SRE');
    expect(renamed.repository.rename).toHaveBeenCalledWith(expect.anything(), ORG, ops.id, 'SRE');
    expect(renamed.actions()).toEqual(['team.renamed']);
  });

  it("answers 404 for a team that is not the organisation's, before changing anything", async () => {
    const { service, repository, actions } = setUp({ lock: jest.fn(async () => undefined) });
    const error = await service.remove(byAda, 'nope').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    expect(repository.delete).not.toHaveBeenCalled();
    expect(actions()).toEqual([]);
  });

  it('deletes with the member count in the audit entry', async () => {
    const { service, repository, actions } = setUp();
    await service.remove({ ...byAda, ip: '203.0.113.7' }, ops.id);
    expect(repository.delete).toHaveBeenCalledWith(expect.anything(), ORG, ops.id);
    expect(actions()).toEqual(['team.deleted']);
  });

  it('adds and removes a member, audited with their name only when the team changed', async () => {
    const { service, repository, actions } = setUp();
    await service.addMember(byAda, ops.id, bob.id);
    await service.removeMember(byAda, ops.id, bob.id);
    expect((repository.setMember as jest.Mock).mock.calls).toEqual([
      [expect.anything(), ORG, ops.id, bob.id, true],
      [expect.anything(), ORG, ops.id, bob.id, false],
    ]);
    expect(actions()).toEqual(['team.member_added', 'team.member_removed']);
    const unchanged = setUp({ setMember: jest.fn(async () => false) });
    await unchanged.service.addMember(byAda, ops.id, bob.id);
    await unchanged.service.removeMember(byAda, ops.id, bob.id);
    expect(unchanged.actions()).toEqual([]);
  });
});
