import { Column, CreateDateColumn, Entity, Index } from 'typeorm';
import type { BuiltInRoleKey, Permission } from '@interlock/domain';
import { OrganisationRow } from '../organisation/organisation-row';

@Entity({ name: 'roles' })
@Index('roles_organisation_name_key', ['organisationId', 'name'], { unique: true })
export class RoleEntity extends OrganisationRow {
  @Column('text')
  name!: string;

  @Column('text', { array: true })
  permissions!: Permission[];

  /** owner | developer | manager for the built-in roles (not editable), null for custom ones. */
  @Column('text', { nullable: true })
  builtIn!: BuiltInRoleKey | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;
}
