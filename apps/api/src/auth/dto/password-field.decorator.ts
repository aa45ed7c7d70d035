import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length, MaxLength } from 'class-validator';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../password.util';

/**
 * A password the person chooses (sign-up, an invitation, a reset, a change, an undone email
 * change): 8 to 200 characters (SPEC §8f), in the contract and in the check alike.
 */
export function NewPasswordField(): PropertyDecorator {
  return applyDecorators(
    ApiProperty({
      minLength: PASSWORD_MIN_LENGTH,
      maxLength: PASSWORD_MAX_LENGTH,
      format: 'password',
    }),
    // applyDecorators applies these first to last, where stacked decorators apply bottom-up: the
    // length before IsString, so that a 400 lists its messages in the order the stacked
    // `@IsString() @Length(…)` of the contract gave them.
    Length(PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH),
    IsString(),
  );
}

/**
 * A password checked against the account's (sign-in, or the person's own before a change): at
 * most 200 characters and no least length, so a short one is a wrong password, not a 400.
 */
export function PasswordField(description?: string): PropertyDecorator {
  return applyDecorators(
    ApiProperty({
      maxLength: PASSWORD_MAX_LENGTH,
      format: 'password',
      ...(description === undefined ? {} : { description }),
    }),
    // The length before IsString, as NewPasswordField's (the 400's message order).
    MaxLength(PASSWORD_MAX_LENGTH),
    IsString(),
  );
}
