import { grantableRoleOptions, mayGrant } from './grantable-roles';

const owner = { id: 'o', name: 'Owner', permissions: ['member.invite', 'role.manage'] as const };
const manager = { id: 'm', name: 'Manager', permissions: ['member.invite'] as const };
const empty = { id: 'e', name: 'Nothing', permissions: [] as const };

describe('grantable roles', () => {
  it('offers only roles whose every permission the member holds', () => {
    const roles = [owner, manager, empty].map((r) => ({ ...r, permissions: [...r.permissions] }));
    expect(grantableRoleOptions(roles, ['member.invite'])).toEqual([
      { value: 'm', label: 'Manager' },
      { value: 'e', label: 'Nothing' },
    ]);
    expect(
      grantableRoleOptions(roles, ['member.invite', 'role.manage']).map((o) => o.value),
    ).toEqual(['o', 'm', 'e']);
  });

  it('refuses a role holding one permission more', () => {
    expect(mayGrant({ permissions: ['member.invite', 'role.manage'] }, ['member.invite'])).toBe(
      false,
    );
    expect(mayGrant({ permissions: [] }, [])).toBe(true);
  });
});
