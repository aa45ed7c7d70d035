import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsUUID, ValidateBy, ValidateIf } from 'class-validator';

/**
 * Assign to a member (`memberId`) or to a team (`teamId`) of the organisation: exactly one.
 * `memberId: null` removes the assignee, whichever kind it is.
 */
export class AssignInterruptDto {
  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'A member of the organisation (or give teamId); null unassigns the interrupt.',
  })
  @ValidateIf(
    (o: AssignInterruptDto) =>
      (o.teamId === undefined || o.memberId !== undefined) && o.memberId !== null,
  )
  @IsUUID('loose', { message: 'memberId must be a UUID or null (or give teamId instead)' })
  memberId?: string | null;

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'A team of the organisation (or give memberId).',
  })
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
