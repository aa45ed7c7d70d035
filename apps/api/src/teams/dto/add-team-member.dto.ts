import { IsUUID } from 'class-validator';
import { ApiUuid } from '../../openapi/api-field.decorator';

export class AddTeamMemberDto {
  @ApiUuid({ description: 'A member of the organisation.' })
  @IsUUID('loose')
  memberId!: string;
}
