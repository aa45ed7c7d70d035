import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
} from 'typeorm';
import type { BuiltInRoleKey, Permission } from '@interlock/domain';
import { OrganisationEntity } from '../organisation/organisation.entity';

@Entity({ name: 'roles' })
@Index('roles_organisation_name_key', ['organisationId', 'name'], { unique: true })
export class RoleEntity {
  @PrimaryColumn('uuid')
  organisationId!: string;

  @PrimaryColumn('uuid')
  id!: string;

  @ManyToOne(() => OrganisationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organisation_id' })
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
