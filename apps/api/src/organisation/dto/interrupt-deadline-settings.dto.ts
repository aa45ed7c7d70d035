import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsInt, Max, Min, ValidateIf } from 'class-validator';
import { MAX_TIMEOUT_SECONDS } from '@interlock/domain';
import { OptionalField } from '../../http/optional-field.decorator';
import { RequireAnyOf } from '../../http/require-any-of.decorator';

/** Settings → Deadlines: the organisation's bounds on interrupt deadlines (SPEC §8e). */
export class InterruptDeadlineSettingsResponse {
  @ApiProperty({
    type: 'integer',
    nullable: true,
    minimum: 1,
    maximum: MAX_TIMEOUT_SECONDS,
    description:
      'The deadline, in seconds, of an interrupt opened without timeoutSeconds; null: such interrupts wait without a deadline.',
  })
  defaultTimeoutSeconds!: number | null;

  @ApiProperty({
    type: 'integer',
    minimum: 1,
    maximum: MAX_TIMEOUT_SECONDS,
    description:
      'The longest deadline an agent (timeoutSeconds) or a member (extend) may set, in seconds.',
  })
  maxTimeoutSeconds!: number;

  @ApiProperty({
    description:
      'Whether an agent may ask for onTimeout: approve. Off, such an interrupt is refused at creation, and one already open is rejected at its deadline instead.',
  })
  approveOnTimeoutAllowed!: boolean;
}

/** What changes: the fields given (at least one); the others stay. */
@RequireAnyOf('defaultTimeoutSeconds', 'maxTimeoutSeconds', 'approveOnTimeoutAllowed')
export class UpdateInterruptDeadlineSettingsDto {
  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: 1,
    maximum: MAX_TIMEOUT_SECONDS,
    description:
      'null: no default deadline. At most maxTimeoutSeconds (as it is after this change).',
  })
  @ValidateIf(
    (o: UpdateInterruptDeadlineSettingsDto) =>
      o.defaultTimeoutSeconds !== null && o.defaultTimeoutSeconds !== undefined,
  )
  @IsInt()
  @Min(1)
  @Max(MAX_TIMEOUT_SECONDS)
  defaultTimeoutSeconds?: number | null;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_TIMEOUT_SECONDS })
  @OptionalField()
  @IsInt()
  @Min(1)
  @Max(MAX_TIMEOUT_SECONDS)
  maxTimeoutSeconds?: number;

  @ApiPropertyOptional()
  @OptionalField()
  @IsBoolean()
  approveOnTimeoutAllowed?: boolean;
}
