import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsObject, IsString, Length, Matches } from 'class-validator';
import { OptionalField } from '../../http/optional-field.decorator';

export class StartSessionDto {
  @ApiProperty({ minLength: 1, maxLength: 200, example: 'nightly-build' })
  @IsString()
  @Length(1, 200)
  @Matches(/\S/, { message: 'name must not be blank' })
  name!: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: 200 })
  @OptionalField()
  @IsString()
  @Length(1, 200)
  externalId?: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @OptionalField()
  @IsObject()
  metadata?: Record<string, unknown>;
}
