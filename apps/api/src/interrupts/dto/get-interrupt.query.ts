import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsIn, IsOptional } from 'class-validator';
import { INTERRUPT_INCLUDES } from '../interrupt-record';
import type { InterruptInclude } from '../interrupt-record';

/** `include=history,session`, or the parameter repeated: one list either way. */
const commaList = ({ value }: { value: unknown }) =>
  typeof value === 'string'
    ? value.split(',')
    : Array.isArray(value)
      ? value.flatMap((v) => (typeof v === 'string' ? v.split(',') : [v]))
      : value;

/** `waitSeconds` at most (SPEC §8e). */
export const MAX_WAIT_SECONDS = 60;
const WAIT_SECONDS = Array.from({ length: MAX_WAIT_SECONDS + 1 }, (_, i) => i);

export class GetInterruptQuery {
  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', enum: [...INTERRUPT_INCLUDES] },
    description:
      'Add to the record: history (its audit entries, oldest first; needs the audit log), session (the linked session, or null) ' +
      'argus (the entries argus wrote about it: why each action was or was not decided by a rule) ' +
      'resume (where the POST to its resumeUrl stands: delivered, retrying, failed…) ' +
      'and/or escalation (the reminders and escalations its escalation policy made, and its next step). ' +
      'Repeat the parameter or separate with commas. Without it the record is exactly what agents read.',
  })
  @IsOptional()
  @Transform(commaList)
  @IsIn(INTERRUPT_INCLUDES, {
    each: true,
    message: `include must list only ${INTERRUPT_INCLUDES.join(', ')}`,
  })
  include?: InterruptInclude[];

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: MAX_WAIT_SECONDS,
    description:
      'Hold the request while the interrupt is open, for at most this many seconds, then answer its current state ' +
      '(200 either way). An interrupt that is not open is answered at once. With a key, an answer at once costs one ' +
      "request of the organisation's budget and a held wait none (one if it ends by its time or its client within 10 s); " +
      'held waits are capped per organisation (429) and per instance (503).',
  })
  @IsOptional()
  @Type(() => Number)
  // One rule, one message: an integer of the range (NaN, fractions and the out of range are not in it).
  @IsIn(WAIT_SECONDS, { message: `waitSeconds must be an integer from 0 to ${MAX_WAIT_SECONDS}` })
  waitSeconds?: number;
}
