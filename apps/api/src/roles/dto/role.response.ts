import type { BuiltInRoleKey, Permission } from '@interlock/domain';

/** A role as listed: `builtIn` is `owner`, `developer` or `manager` for the built-in roles, else null. */
export interface RoleResponse {
  id: string;
  name: string;
  permissions: Permission[];
  builtIn: BuiltInRoleKey | null;
  createdAt: string;
}
