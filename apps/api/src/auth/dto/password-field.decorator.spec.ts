import 'reflect-metadata';
import type { ArgumentMetadata } from '@nestjs/common';
import { DomainError } from '@interlock/domain';
import { ApiValidationPipe } from '../../http/validation.pipe';
import { ChangePasswordDto } from '../../users/dto/password.dto';
import { NewPasswordField, PasswordField } from './password-field.decorator';

class Passwords {
  @NewPasswordField()
  chosen!: string;

  @PasswordField('Your current password.')
  current!: string;
}

// @nestjs/swagger's metadata key of a DTO's property (its DECORATORS constants, not exported).
const API_MODEL_PROPERTIES = 'swagger/apiModelProperties';

const body: ArgumentMetadata = { type: 'body', metatype: Passwords };

/** The 400's text, or 'accepted'. */
async function answer(value: Record<string, unknown>): Promise<string> {
  try {
    await new ApiValidationPipe().transform(value, body);
    return 'accepted';
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return `${error.code}: ${error.message}`;
  }
}

function documented(target: object, property: string): unknown {
  return Reflect.getMetadata(API_MODEL_PROPERTIES, target, property);
}

describe('NewPasswordField: a password the person chooses, 8 to 200 characters (SPEC §8f)', () => {
  it.each([8, 200])('accepts %i characters', async (length) => {
    expect(await answer({ chosen: 'p'.repeat(length), current: 'x' })).toBe('accepted');
  });

  it.each([
    [7, 'chosen must be longer than or equal to 8 characters'],
    [201, 'chosen must be shorter than or equal to 200 characters'],
  ])('refuses %i characters: 400 VALIDATION_FAILED', async (length, message) => {
    expect(await answer({ chosen: 'p'.repeat(length), current: 'x' })).toBe(
      `VALIDATION_FAILED: ${message}`,
    );
  });

  it('refuses what is not a string', async () => {
    expect(await answer({ chosen: 12345678, current: 'x' })).toMatch(
      /^VALIDATION_FAILED: chosen must be a string/,
    );
  });

  it('documents the bounds it checks, as a password', () => {
    expect(documented(Passwords.prototype, 'chosen')).toMatchObject({
      minLength: 8,
      maxLength: 200,
      format: 'password',
    });
  });
});

describe('PasswordField: a password checked against the account, at most 200 characters', () => {
  it('accepts a short one (it is then a wrong password, not a 400) and 200 characters', async () => {
    expect(await answer({ chosen: 'p'.repeat(8), current: 'x' })).toBe('accepted');
    expect(await answer({ chosen: 'p'.repeat(8), current: 'x'.repeat(200) })).toBe('accepted');
  });

  it('refuses 201 characters', async () => {
    expect(await answer({ chosen: 'p'.repeat(8), current: 'x'.repeat(201) })).toBe(
      'VALIDATION_FAILED: current must be shorter than or equal to 200 characters',
    );
  });

  it('documents its bound and the description given, with no least length', () => {
    const current = documented(Passwords.prototype, 'current');
    expect(current).toMatchObject({
      maxLength: 200,
      format: 'password',
      description: 'Your current password.',
    });
    expect(current).not.toHaveProperty('minLength');
    expect(documented(ChangePasswordDto.prototype, 'currentPassword')).not.toHaveProperty(
      'description',
    );
  });
});
