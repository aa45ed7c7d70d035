import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Length, Matches } from 'class-validator';
import { OptionalField } from '../../http/optional-field.decorator';

export class EscalateInterruptDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 1000 })
  @OptionalField()
  @IsString()
  @Length(1, 1000)
  @Matches(/\S/, { message: 'reason must not be blank' })
  reason?: string;
}
