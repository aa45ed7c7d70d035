import { LinkTokenField } from './link-token-field.decorator';

export class VerifyEmailDto {
  @LinkTokenField('the verification link')
  token!: string;
}
