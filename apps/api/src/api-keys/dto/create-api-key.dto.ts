import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsString, Length, Matches } from 'class-validator';
import { API_KEY_EXPIRIES, type ApiKeyExpiry } from '../api-key-expiry';

export class CreateApiKeyDto {
  @ApiProperty({ minLength: 1, maxLength: 32, example: 'ci-runner' })
  @IsString()
  @Length(1, 32)
  @Matches(/\S/, { message: 'name must not be blank' })
  name!: string;

  @ApiProperty({
    enum: API_KEY_EXPIRIES,
    description: 'Fixed at creation: never, or 7, 30 or 90 days.',
  })
  @IsIn(API_KEY_EXPIRIES)
  expiry!: ApiKeyExpiry;
}
