import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsIn, IsOptional } from 'class-validator';
import { INTERRUPT_INCLUDES } from '../interrupt-record';
import type { InterruptInclude } from '../interrupt-record';
import { validateQuery } from '../../http/validated-params';

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

const INCLUDES: ReadonlySet<string> = new Set(INTERRUPT_INCLUDES);
/** A `waitSeconds` written the one plain way (0 to 60, no sign, no leading zero, no space). */
const PLAIN_WAIT_SECONDS = /^(?:[1-5]?[0-9]|60)$/;

/**
 * The GET's query as the validation pipe would answer it, without the pipe for the forms clients
 * send — none, `include` once as a comma list of known names, `waitSeconds` as a plain integer
 * of the range (issue 28: the pipe and Nest's pipes step were ~10 sampled µs of the PK read).
 * Anything else (a repeated or unknown parameter, a value of another form, a refusal) goes to
 * the pipe: the same value and the same 400 as ever, since this path takes only inputs whose
 * outcome it gives exactly.
 */
export function readGetInterruptQuery(
  query: Record<string, unknown>,
): GetInterruptQuery | Promise<GetInterruptQuery> {
  const read: GetInterruptQuery = {};
  for (const name in query) {
    const value = query[name];
    if (typeof value !== 'string') return validateQuery(query, GetInterruptQuery);
    if (name === 'include') {
      const names = value.split(',');
      if (!names.every((n) => INCLUDES.has(n))) return validateQuery(query, GetInterruptQuery);
      read.include = names as InterruptInclude[];
    } else if (name === 'waitSeconds' && PLAIN_WAIT_SECONDS.test(value)) {
      read.waitSeconds = Number(value);
    } else {
      return validateQuery(query, GetInterruptQuery);
    }
  }
  return read;
}
