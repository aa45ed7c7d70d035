import { ApiProperty } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';

export class AddTeamMemberDto {
  @ApiProperty({ format: 'uuid', description: 'A member of the organisation.' })
  @IsUUID('loose')
  memberId!: string;
}
