import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { OrganisationEntity } from '../organisation/organisation.entity';
import { RoleEntity } from '../roles/role.entity';
import { UserEntity } from '../users/user.entity';
import { References, ReferencesInOrganisation } from '../database/references.decorator';

/**
 * A user's membership of an organisation, with its role. Removing a member ends the
 * membership (`leftAt`, and the role is let go) instead of deleting it; joining again starts
 * it anew. Only a current membership (`leftAt` null) lets a user act in the organisation.
 */
@Entity({ name: 'memberships' })
@Index('memberships_user_idx', ['userId'])
@Index('memberships_organisation_role_idx', ['organisationId', 'roleId'])
@Check('memberships_role_while_current', `("left_at" IS NULL) = ("role_id" IS NOT NULL)`)
export class MembershipEntity {
  @PrimaryColumn('uuid')
  organisationId!: string;

  /** The member's id in the API: the user's id. */
  @PrimaryColumn('uuid')
  userId!: string;

  @References(() => OrganisationEntity, 'organisation_id')
  organisation?: OrganisationEntity;

  @References(() => UserEntity, 'user_id', { onDelete: 'RESTRICT' })
  user?: UserEntity;

  /** The role while the membership is current; null once it ended. */
  @Column('uuid', { nullable: true })
  roleId!: string | null;

  @ReferencesInOrganisation(() => RoleEntity, 'role_id', { onDelete: 'RESTRICT' })
  role?: RoleEntity;

  @CreateDateColumn({ type: 'timestamptz' })
  joinedAt!: Date;

  @Column('timestamptz', { nullable: true })
  leftAt!: Date | null;
}
