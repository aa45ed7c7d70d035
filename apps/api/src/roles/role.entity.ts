import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import type { BuiltInRoleKey, Permission } from '@interlock/domain';
import { OrganisationEntity } from '../organisation/organisation.entity';
import { References } from '../database/references.decorator';

@Entity({ name: 'roles' })
@Index('roles_organisation_name_key', ['organisationId', 'name'], { unique: true })
export class RoleEntity {
  @PrimaryColumn('uuid')
  organisationId!: string;

  @PrimaryColumn('uuid')
  id!: string;

  @References(() => OrganisationEntity, 'organisation_id')
  organisation?: OrganisationEntity;

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
