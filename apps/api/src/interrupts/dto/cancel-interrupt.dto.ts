import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Length, Matches } from 'class-validator';
import { OptionalField } from '../../http/optional-field.decorator';

export class CancelInterruptDto {
  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 1000,
    description: 'Why the agent no longer needs the review; shown in the inbox.',
  })
  @OptionalField()
  @IsString()
  @Length(1, 1000)
  @Matches(/\S/, { message: 'reason must not be blank' })
  reason?: string;
}
