import { ApiPropertyOptional } from '@nestjs/swagger';
import type { Type as Class } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';

/** The longest cursor a list accepts: every cursor the service issues is far shorter. */
const CURSOR_MAX_LENGTH = 1000;

/**
 * A list endpoint's query (SPEC §3's keyset pages): its own filters (`Filters`), then `cursor`
 * and `limit` (1–200, default 50) — appended after the filters, so the contract lists the
 * parameters in that order. The list DTOs extend `CursorPage(TheirFilters)`.
 */
export function CursorPage<T extends Class>(Filters: T) {
  class Page extends Filters {
    /** Opaque: the `nextCursor` of the previous page, with the same filters. */
    @ApiPropertyOptional({
      minLength: 1,
      maxLength: CURSOR_MAX_LENGTH,
      description: 'The previous nextCursor; repeat the other parameters unchanged.',
    })
    @IsOptional()
    @IsString()
    @Length(1, CURSOR_MAX_LENGTH)
    cursor?: string;

    @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 200, default: 50 })
    @IsOptional()
    @Type(() => Number)
    @IsInt()
    @Min(1)
    @Max(200)
    limit?: number;
  }
  return Page;
}
