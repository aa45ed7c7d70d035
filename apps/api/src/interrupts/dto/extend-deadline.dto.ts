import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { MAX_TIMEOUT_SECONDS } from '@interlock/domain';

export class ExtendDeadlineDto {
  @ApiProperty({
    type: 'integer',
    minimum: 1,
    maximum: MAX_TIMEOUT_SECONDS,
    description:
      "The new deadline, in seconds from now: later than the current one, within the organisation's maximum.",
  })
  @IsInt()
  @Min(1)
  @Max(MAX_TIMEOUT_SECONDS)
  timeoutSeconds!: number;
}
