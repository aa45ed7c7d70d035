import { IsUUID } from 'class-validator';

export class AddTeamMemberDto {
  @IsUUID()
  memberId!: string;
}
