import { CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { MembershipEntity } from '../members/membership.entity';
import { TeamEntity } from './team.entity';

@Entity({ name: 'team_members' })
@Index('team_members_member_idx', ['organisationId', 'memberId'])
export class TeamMemberEntity {
  @PrimaryColumn('uuid')
  organisationId!: string;

  @PrimaryColumn('uuid')
  teamId!: string;

  @PrimaryColumn('uuid')
  memberId!: string;

  @ManyToOne(() => TeamEntity, { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'organisation_id', referencedColumnName: 'organisationId' },
    { name: 'team_id', referencedColumnName: 'id' },
  ])
  team?: TeamEntity;

  /** The member's user id; removing the member deletes these rows with the membership's end. */
  @ManyToOne(() => MembershipEntity, { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'organisation_id', referencedColumnName: 'organisationId' },
    { name: 'member_id', referencedColumnName: 'userId' },
  ])
  member?: MembershipEntity;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;
}
