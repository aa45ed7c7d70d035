import { Column, Entity, Index } from 'typeorm';
import { RoleEntity } from '../roles/role.entity';
import { HashedTokenRowOn } from '../database/hashed-token-row';
import { OrganisationScopedRow } from '../organisation/organisation-row';
import { ReferencesInOrganisation } from '../database/references.decorator';

/** An invitation to join an organisation. Only the SHA-256 of its token is stored. */
@Entity({ name: 'invitations' })
@Index('invitations_token_hash_key', ['tokenHash'], { unique: true })
@Index('invitations_organisation_created_idx', ['organisationId', 'createdAt'])
export class InvitationEntity extends HashedTokenRowOn(OrganisationScopedRow) {
  @Column('text')
  email!: string;

  @Column('uuid')
  roleId!: string;

  @ReferencesInOrganisation(() => RoleEntity, 'role_id')
  role?: RoleEntity;

  @Column('uuid')
  invitedBy!: string;

  @Column('timestamptz', { nullable: true })
  acceptedAt!: Date | null;
}
