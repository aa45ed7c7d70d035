import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { OrganisationEntity } from '../organisation/organisation.entity';
import { RoleEntity } from '../roles/role.entity';

@Entity({ name: 'members' })
@Index('members_email_key', ['email'], { unique: true })
@Index('members_organisation_role_idx', ['organisationId', 'roleId'])
export class MemberEntity {
  @PrimaryColumn('uuid')
  organisationId!: string;

  @PrimaryColumn('uuid')
  id!: string;

  @ManyToOne(() => OrganisationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organisation_id' })
  organisation?: OrganisationEntity;

  /** Lower-cased; one member per email across the service (sign-in is by email). */
  @Column('text')
  email!: string;

  @Column('text')
  name!: string;

  @Column('text')
  passwordHash!: string;

  @Column('uuid')
  roleId!: string;

  @ManyToOne(() => RoleEntity, { onDelete: 'RESTRICT' })
  @JoinColumn([
    { name: 'organisation_id', referencedColumnName: 'organisationId' },
    { name: 'role_id', referencedColumnName: 'id' },
  ])
  role?: RoleEntity;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;
}
