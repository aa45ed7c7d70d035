import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsUUID, ValidateBy, ValidateIf } from 'class-validator';

/** Assign to a member (`memberId`) or to a team (`teamId`) of the organisation: exactly one. */
export class AssignInterruptDto {
  @ApiPropertyOptional({ format: 'uuid', description: 'A member of the organisation (or give teamId).' })
  @ValidateIf((o: AssignInterruptDto) => o.teamId === undefined || o.memberId !== undefined)
  @IsUUID('loose', { message: 'memberId must be a UUID (or give teamId instead)' })
  memberId?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'A team of the organisation (or give memberId).' })
  @ValidateIf((o: AssignInterruptDto) => o.teamId !== undefined)
  @ValidateBy({
    name: 'notBoth',
    validator: {
      validate: (_: unknown, args) => (args?.object as AssignInterruptDto).memberId === undefined,
      defaultMessage: () => 'teamId cannot be given together with memberId',
    },
  })
  @IsUUID('loose', { message: 'teamId must be a UUID' })
  teamId?: string;
}
