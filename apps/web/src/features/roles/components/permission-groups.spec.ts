import { PERMISSIONS } from '@interlock/domain';
import { ALL_PERMISSIONS } from './permission-groups';

describe('PERMISSION_GROUPS', () => {
  it('lists every permission of the domain exactly once', () => {
    expect([...ALL_PERMISSIONS].sort()).toEqual([...PERMISSIONS].sort());
  });
});
