import { IsIn, IsString, Length, Matches } from 'class-validator';

export const API_KEY_EXPIRIES = ['never', '7d', '30d', '90d'] as const;
export type ApiKeyExpiry = (typeof API_KEY_EXPIRIES)[number];

export class CreateApiKeyDto {
  @IsString()
  @Length(1, 32)
  @Matches(/\S/, { message: 'name must not be blank' })
  name!: string;

  @IsIn(API_KEY_EXPIRIES)
  expiry!: ApiKeyExpiry;
}
