import { ApiKeyEntity } from '../api-keys/api-key.entity';
import { MemberSessionEntity } from '../auth/member-session.entity';
import { InvitationEntity } from '../invitations/invitation.entity';
import { MemberEntity } from '../members/member.entity';
import { OrganisationEntity } from '../organisation/organisation.entity';
import { RoleEntity } from '../roles/role.entity';
import { TeamMemberEntity } from '../teams/team-member.entity';
import { TeamEntity } from '../teams/team.entity';

/** Every entity of the one data source. */
export const ENTITIES = [
  OrganisationEntity,
  RoleEntity,
  MemberEntity,
  MemberSessionEntity,
  ApiKeyEntity,
  TeamEntity,
  TeamMemberEntity,
  InvitationEntity,
];
