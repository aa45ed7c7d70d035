import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional } from 'class-validator';
import { INTERRUPT_INCLUDES } from '../interrupt-record';
import type { InterruptInclude } from '../interrupt-record';

/** `include=history,session`, or the parameter repeated: one list either way. */
const commaList = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value.flatMap((v) => (typeof v === 'string' ? v.split(',') : [v])) : value;

export class GetInterruptQuery {
  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', enum: [...INTERRUPT_INCLUDES] },
    description:
      'Add to the record: history (its audit entries, oldest first) and/or session (the linked session, or null). ' +
      'Repeat the parameter or separate with commas. Without it the record is exactly what agents read.',
  })
  @IsOptional()
  @Transform(commaList)
  @IsIn(INTERRUPT_INCLUDES, { each: true, message: `include must list only ${INTERRUPT_INCLUDES.join(', ')}` })
  include?: InterruptInclude[];
}
