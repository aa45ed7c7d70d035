import { DomainError, type MemberActor, type Permission } from '@interlock/domain';
import { fakeDataSource } from '../database/testing/fake-data-source';
import type { GranterCall } from '../auth/caller';
import type { RolesRepository } from '../roles/roles.repository';
import type { GrantableRole, RolesService } from '../roles/roles.service';
import type { TeamsRepository } from '../teams/teams.repository';
import { MembersService } from './members.service';
import * as memberships from './memberships.repository';

// The memberships' owner is function-style: each of its functions is faked here.
jest.mock('./memberships.repository', () => ({
  listCurrentMembers: jest.fn(),
  lockMemberForChange: jest.fn(),
  setMemberRole: jest.fn(),
  endMembership: jest.fn(),
  countRoleHolders: jest.fn(),
}));
const fake = memberships as jest.Mocked<typeof memberships>;

const ORG = '6c0f7a52-93a3-4d55-9e4b-7c2b3f1a0e11';
const ada: MemberActor = { type: 'member', id: 'u-ada', name: 'Ada Lovelace' };
const ALL: Permission[] = ['member.manage', 'interrupt.decide', 'interrupt.read', 'role.manage'];
const granter = (...permissions: Permission[]): GranterCall => ({
  organisationId: ORG,
  actor: ada,
  permissions: new Set(permissions),
  ip: null,
});
const joined = new Date('2026-11-22T00:00:00.000Z');
const bob = {
  id: 'u-bob',
  email: 'bob@example.com',
  name: 'Bob',
  role_id: 'r-owner',
  role_name: 'Owner',
  created_at: joined,
  permissions: ALL,
  built_in: 'owner' as const,
};
const developer: GrantableRole = {
  id: 'r-dev',
  name: 'Developer',
  permissions: ['interrupt.read'],
  builtIn: 'developer',
};

function setUp() {
  const { dataSource, tx, audit } = fakeDataSource();
  const roles = { findGrantable: jest.fn(async () => developer) } as unknown as RolesService;
  const roleRows = {
    lockBuiltIn: jest.fn(async () => ({ id: 'r-owner' })),
  } as unknown as RolesRepository;
  const teams = {
    removeMemberFromAll: jest.fn(async () => undefined),
  } as unknown as TeamsRepository;
  return {
    service: new MembersService(dataSource, roles, roleRows, teams),
    roles,
    roleRows,
    teams,
    tx,
    audit,
  };
}

beforeEach(() => {
  jest.resetAllMocks();
  fake.lockMemberForChange.mockResolvedValue(bob);
  fake.countRoleHolders.mockResolvedValue(1);
});

describe('MembersService', () => {
  it("changes a member's role and audits from and to", async () => {
    const { service, roleRows, audit } = setUp();
    const changed = await service.changeRole(granter(...ALL), bob.id, developer.id);
    expect(changed).toMatchObject({
      id: bob.id,
      roleId: 'r-dev',
      roleName: 'Developer',
      createdAt: joined.toISOString(),
    });
    // Demoting an Owner: the Owner role is locked, then the other holders counted.
    expect(roleRows.lockBuiltIn).toHaveBeenCalledWith(
      expect.anything(),
      ORG,
      'owner',
      'FOR NO KEY UPDATE',
    );
    expect(fake.countRoleHolders).toHaveBeenCalledWith(expect.anything(), ORG, 'r-owner', bob.id);
    expect(fake.setMemberRole).toHaveBeenCalledWith(expect.anything(), ORG, bob.id, 'r-dev');
    expect(audit).toEqual([
      expect.objectContaining({
        action: 'member.role_changed',
        actor: ada,
        target: { type: 'user', id: bob.id, name: 'Bob' },
        metadata: {
          fromRoleId: 'r-owner',
          fromRole: 'Owner',
          toRoleId: 'r-dev',
          toRole: 'Developer',
        },
      }),
    ]);
  });

  it('keeps the last Owner: neither demoted nor removed (409), nothing written', async () => {
    fake.countRoleHolders.mockResolvedValue(0);
    const { service, teams, audit } = setUp();
    await expect(service.changeRole(granter(...ALL), bob.id, developer.id)).rejects.toMatchObject({
      code: 'CONFLICT',
      message:
        'The organisation must keep at least one Owner: demoting the last Owner is not allowed.',
    });
    await expect(service.remove(granter(...ALL), bob.id)).rejects.toMatchObject({
      code: 'CONFLICT',
      message:
        'The organisation must keep at least one Owner: removing the last Owner is not allowed.',
    });
    expect(fake.setMemberRole).not.toHaveBeenCalled();
    expect(fake.endMembership).not.toHaveBeenCalled();
    expect(teams.removeMemberFromAll).not.toHaveBeenCalled();
    expect(audit).toEqual([]);
  });

  it('refuses to change or remove a member whose role holds more than the caller (403)', async () => {
    const { service, audit } = setUp();
    const weaker = granter('member.manage', 'interrupt.read');
    const error = await service.remove(weaker, bob.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'MISSING_PERMISSION', status: 403 });
    await expect(service.changeRole(weaker, bob.id, developer.id)).rejects.toMatchObject({
      code: 'MISSING_PERMISSION',
    });
    expect(fake.endMembership).not.toHaveBeenCalled();
    expect(fake.setMemberRole).not.toHaveBeenCalled();
    expect(audit).toEqual([]);
  });

  it('lets a member change their own role or leave, whatever their role holds', async () => {
    fake.lockMemberForChange.mockResolvedValue({
      ...bob,
      id: ada.id,
      name: ada.name,
      built_in: null,
      role_id: 'r-x',
      role_name: 'X',
    });
    const { service, audit } = setUp();
    await service.remove(granter('member.manage'), ada.id);
    expect(audit.map((e) => e.action)).toEqual(['member.removed']);
  });

  it('removes a member: out of their teams, the membership ended, audited', async () => {
    const { service, teams, tx, audit } = setUp();
    await service.remove({ ...granter(...ALL), ip: '203.0.113.7' }, bob.id);
    expect(teams.removeMemberFromAll).toHaveBeenCalledWith(tx, ORG, bob.id);
    expect(fake.endMembership).toHaveBeenCalledWith(tx, ORG, bob.id);
    expect(audit).toEqual([
      expect.objectContaining({
        action: 'member.removed',
        metadata: { email: 'bob@example.com', roleId: 'r-owner', role: 'Owner' },
      }),
    ]);
  });

  it('answers 404 for someone who is no current member, before anything else', async () => {
    fake.lockMemberForChange.mockResolvedValue(undefined);
    const { service, roles, audit } = setUp();
    await expect(
      service.changeRole(granter(...ALL), 'u-nobody', developer.id),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 });
    await expect(service.remove(granter(...ALL), 'u-nobody')).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(roles.findGrantable).not.toHaveBeenCalled();
    expect(audit).toEqual([]);
  });

  it('changes nothing when the role is the one held', async () => {
    fake.lockMemberForChange.mockResolvedValue({
      ...bob,
      role_id: 'r-dev',
      role_name: 'Developer',
      built_in: 'developer',
    });
    const { service, audit } = setUp();
    await service.changeRole(granter(...ALL), bob.id, developer.id);
    expect(fake.setMemberRole).not.toHaveBeenCalled();
    expect(audit).toEqual([]);
  });
});
