import { DomainError, type MemberActor, type Permission } from '@interlock/domain';
import { fakeDataSource } from '../database/testing/fake-data-source';
import type { InvitationsRepository } from '../invitations/invitations.repository';
import { countRoleHolders } from '../members/memberships.repository';
import type { GranterCall } from '../auth/caller';
import type { RoleRow, RolesRepository } from './roles.repository';
import { RolesService } from './roles.service';

// The memberships' owner is function-style: its holder count is faked here.
jest.mock('../members/memberships.repository', () => ({
  countRoleHolders: jest.fn(async () => 0),
}));
const holders = countRoleHolders as jest.MockedFunction<typeof countRoleHolders>;

const ORG = '6c0f7a52-93a3-4d55-9e4b-7c2b3f1a0e11';
const ada: MemberActor = { type: 'member', id: 'u-ada', name: 'Ada Lovelace' };
const granter = (...permissions: Permission[]): GranterCall => ({
  organisationId: ORG,
  actor: ada,
  permissions: new Set(permissions),
  ip: null,
});
const owner = granter('interrupt.read', 'interrupt.decide', 'member.invite', 'role.manage');
const reviewer: RoleRow = {
  id: 'r-1',
  name: 'Reviewer',
  permissions: ['interrupt.decide', 'interrupt.read'],
  built_in: null,
  created_at: new Date('2026-11-22T00:00:00.000Z'),
};

function setUp(
  overrides: Partial<Record<keyof RolesRepository | keyof InvitationsRepository, jest.Mock>> = {},
) {
  const { dataSource, tx, audit } = fakeDataSource();
  const roles = {
    list: jest.fn(async () => [reviewer]),
    lock: jest.fn(async () => reviewer),
    insert: jest.fn(
      async (
        _db: unknown,
        _org: string,
        role: { id: string; name: string; permissions: string[] },
      ) => ({
        ...reviewer,
        ...role,
      }),
    ),
    update: jest.fn(
      async (
        _db: unknown,
        _org: string,
        _id: string,
        changes: { name: string; permissions: string[] },
      ) => ({
        ...reviewer,
        ...changes,
      }),
    ),
    delete: jest.fn(async () => true),
    ...overrides,
  } as unknown as RolesRepository;
  const invitations = {
    lockWithRole: jest.fn(async () => undefined),
    deleteWithRole: jest.fn(async () => []),
    ...overrides,
  } as unknown as InvitationsRepository;
  return {
    service: new RolesService(dataSource, roles, invitations),
    roles,
    invitations,
    tx,
    audit,
  };
}

beforeEach(() => holders.mockReset().mockResolvedValue(0));

describe('RolesService', () => {
  it('creates a role with its permissions in canonical order, audited', async () => {
    const { service, roles, audit } = setUp();
    const created = await service.create(owner, 'Reviewer', ['interrupt.read', 'interrupt.decide']);
    expect(created.permissions).toEqual(['interrupt.decide', 'interrupt.read']);
    expect(roles.insert).toHaveBeenCalledWith(
      expect.anything(),
      ORG,
      expect.objectContaining({ permissions: ['interrupt.decide', 'interrupt.read'] }),
    );
    expect(audit).toEqual([
      expect.objectContaining({
        action: 'role.created',
        actor: ada,
        metadata: { permissions: ['interrupt.decide', 'interrupt.read'] },
      }),
    ]);
  });

  it('refuses a role beyond the granter’s own permissions (403) before writing anything', async () => {
    const { service, roles, audit } = setUp();
    const error = await service
      .create(granter('role.manage'), 'Deciders', ['interrupt.decide'])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({
      code: 'MISSING_PERMISSION',
      status: 403,
      message: 'Missing permission: interrupt.decide.',
    });
    expect(roles.insert).not.toHaveBeenCalled();
    expect(audit).toEqual([]);
  });

  it('answers 409 for a taken name, writing no entry', async () => {
    const { service, audit } = setUp({
      insert: jest.fn(async () => undefined),
      update: jest.fn(async () => undefined),
    });
    await expect(service.create(owner, 'Reviewer', [])).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'A role with this name already exists.',
    });
    await expect(service.update(owner, reviewer.id, { name: 'Taken' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'A role with this name already exists.',
    });
    expect(audit).toEqual([]);
  });

  it('updates only on a change, and audits what was added and removed', async () => {
    const unchanged = setUp();
    await unchanged.service.update(owner, reviewer.id, {
      name: 'Reviewer',
      permissions: ['interrupt.read', 'interrupt.decide'],
    });
    expect(unchanged.roles.update).not.toHaveBeenCalled();
    expect(unchanged.audit).toEqual([]);

    const changed = setUp();
    const after = await changed.service.update(owner, reviewer.id, {
      permissions: ['interrupt.read', 'member.invite'],
    });
    expect(after.permissions).toEqual(['interrupt.read', 'member.invite']);
    expect(changed.roles.lock).toHaveBeenCalledWith(
      changed.tx,
      ORG,
      reviewer.id,
      'FOR NO KEY UPDATE',
    );
    expect(changed.audit).toEqual([
      expect.objectContaining({
        action: 'role.updated',
        metadata: {
          previousName: 'Reviewer',
          name: 'Reviewer',
          added: ['member.invite'],
          removed: ['interrupt.decide'],
          permissions: ['interrupt.read', 'member.invite'],
        },
      }),
    ]);
  });

  it('never changes a built-in role, a role of another organisation, or one holding more than the granter', async () => {
    const builtIn = setUp({ lock: jest.fn(async () => ({ ...reviewer, built_in: 'developer' })) });
    await expect(builtIn.service.update(owner, reviewer.id, { name: 'X' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'Built-in roles cannot be changed.',
    });
    const missing = setUp({ lock: jest.fn(async () => undefined) });
    await expect(missing.service.update(owner, 'nope', { name: 'X' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      status: 404,
    });
    const weaker = setUp();
    await expect(
      weaker.service.update(granter('role.manage', 'interrupt.read'), reviewer.id, { name: 'X' }),
    ).rejects.toMatchObject({
      code: 'MISSING_PERMISSION',
    });
    for (const s of [builtIn, missing, weaker]) {
      expect(s.roles.update).not.toHaveBeenCalled();
      expect(s.audit).toEqual([]);
    }
  });

  it('refuses to delete a role members still hold, naming how many', async () => {
    holders.mockResolvedValue(2);
    const { service, roles, invitations, audit } = setUp();
    await expect(service.remove(owner, reviewer.id)).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'Role Reviewer is still held by 2 members; give them another role first.',
    });
    expect(holders).toHaveBeenCalledWith(expect.anything(), ORG, reviewer.id);
    expect(invitations.deleteWithRole).not.toHaveBeenCalled();
    expect(roles.delete).not.toHaveBeenCalled();
    expect(audit).toEqual([]);
  });

  it('deletes a role with its invitations, each audited (by email), locking the invitations before the role', async () => {
    const order: string[] = [];
    const { service, roles, audit } = setUp({
      lockWithRole: jest.fn(async () => void order.push('invitations')),
      lock: jest.fn(async () => (order.push('role'), reviewer)),
      deleteWithRole: jest.fn(async () => [
        { id: 'i-2', email: 'zoe@example.com', state: 'pending' },
        { id: 'i-1', email: 'bea@example.com', state: 'accepted' },
      ]),
    });
    await service.remove({ ...owner, ip: '203.0.113.7' }, reviewer.id);
    expect(order).toEqual(['invitations', 'role']);
    expect(roles.lock).toHaveBeenCalledWith(expect.anything(), ORG, reviewer.id, 'FOR UPDATE');
    expect(roles.delete).toHaveBeenCalledWith(expect.anything(), ORG, reviewer.id);
    expect(audit.map((e) => [e.action, e.target.name])).toEqual([
      ['member.invitation_deleted', 'bea@example.com'],
      ['member.invitation_deleted', 'zoe@example.com'],
      ['role.deleted', 'Reviewer'],
    ]);
    expect(audit[2].metadata).toEqual({
      permissions: ['interrupt.decide', 'interrupt.read'],
      invitationsDeleted: 2,
    });
  });

  it('finds a grantable role: 404 when not the organisation’s, 403 when it holds more than the granter', async () => {
    const { service, tx } = setUp();
    await expect(service.findGrantable(tx, ORG, owner.permissions, reviewer.id)).resolves.toEqual({
      id: reviewer.id,
      name: 'Reviewer',
      permissions: ['interrupt.decide', 'interrupt.read'],
      builtIn: null,
    });
    await expect(
      service.findGrantable(tx, ORG, new Set(['interrupt.read'] as Permission[]), reviewer.id),
    ).rejects.toMatchObject({
      code: 'MISSING_PERMISSION',
    });
    const missing = setUp({ lock: jest.fn(async () => undefined) });
    await expect(
      missing.service.findGrantable(missing.tx, ORG, owner.permissions, 'nope'),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
