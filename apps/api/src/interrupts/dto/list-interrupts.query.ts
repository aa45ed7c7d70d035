import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { INTERRUPT_STATUSES } from '../interrupt.entity';
import type { InterruptStatus } from '../interrupt.entity';

export class ListInterruptsQuery {
  @ApiPropertyOptional({ enum: INTERRUPT_STATUSES, enumName: 'InterruptStatus' })
  @IsOptional()
  @IsIn(INTERRUPT_STATUSES)
  status?: InterruptStatus;

  @ApiPropertyOptional({ minLength: 1, maxLength: 200 })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  externalId?: string;

  /** Opaque: the `nextCursor` of the previous page, with the same filters. */
  @ApiPropertyOptional({ description: 'The previous nextCursor; repeat the other parameters unchanged.' })
  @IsOptional()
  @IsString()
  @Length(1, 1000)
  cursor?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 200, default: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(200)
  limit?: number;
}
