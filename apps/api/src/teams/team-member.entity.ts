import { CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { MembershipEntity } from '../members/membership.entity';
import { TeamEntity } from './team.entity';
import { ReferencesInOrganisation } from '../database/references.decorator';

@Entity({ name: 'team_members' })
@Index('team_members_member_idx', ['organisationId', 'memberId'])
export class TeamMemberEntity {
  @PrimaryColumn('uuid')
  organisationId!: string;

  @PrimaryColumn('uuid')
  teamId!: string;

  @PrimaryColumn('uuid')
  memberId!: string;

  @ReferencesInOrganisation(() => TeamEntity, 'team_id')
  team?: TeamEntity;

  /** The member's user id; removing the member deletes these rows with the membership's end. */
  @ReferencesInOrganisation(() => MembershipEntity, 'member_id', { referenced: 'userId' })
  member?: MembershipEntity;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;
}
