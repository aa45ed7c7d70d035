import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsString, Length, Matches, MaxLength } from 'class-validator';
import { NewPasswordField, PasswordField } from '../../auth/dto/password-field.decorator';
import { LinkTokenField } from './link-token-field.decorator';

export class UpdateProfileDto {
  @ApiProperty({ minLength: 1, maxLength: 100, description: 'Your name, as colleagues see it.' })
  @IsString()
  @Length(1, 100)
  @Matches(/\S/, { message: 'name must not be blank' })
  name!: string;
}

export class ChangeEmailDto {
  @ApiProperty({
    format: 'email',
    maxLength: 254,
    description: 'The new address: it takes effect once the link emailed to it is opened.',
  })
  @IsEmail()
  @MaxLength(254)
  email!: string;

  @PasswordField('Your current password.')
  password!: string;
}

/** The answer to an email change request: nothing changed yet. */
export class EmailChangePendingResponse {
  @ApiProperty({
    format: 'email',
    description:
      'The address a link was emailed to (normalised); the account keeps its own until the link is opened.',
  })
  email!: string;
}

export class ConfirmEmailChangeDto {
  @LinkTokenField('the link emailed to the new address')
  token!: string;
}

export class UndoEmailChangeDto {
  @LinkTokenField('the link emailed to the old address')
  token!: string;

  @NewPasswordField()
  password!: string;
}
