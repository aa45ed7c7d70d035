import 'reflect-metadata';
import { IsString, Length, MaxLength } from 'class-validator';
import { documentedProperty, validationAnswer } from '../../http/validation-answer.spec-support';
import { ChangePasswordDto } from '../../users/dto/password.dto';
import { NewPasswordField, PasswordField } from './password-field.decorator';

class Passwords {
  @NewPasswordField()
  chosen!: string;

  @PasswordField('Your current password.')
  current!: string;
}

/** The stacked declarations the DTOs had before the composed ones: their 400s are the contract's. */
class StackedAsBefore {
  @IsString()
  @Length(8, 200)
  chosen!: string;

  @IsString()
  @MaxLength(200)
  current!: string;
}

const answer = (value: Record<string, unknown>) => validationAnswer(Passwords, value);

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

  it("refuses what is not a string, its messages in the stacked declaration's order", async () => {
    expect(await answer({ chosen: 12345678, current: 'x' })).toBe(
      'VALIDATION_FAILED: chosen must be longer than or equal to 8 and shorter than or equal to 200 characters; chosen must be a string',
    );
  });

  it('documents the bounds it checks, as a password', () => {
    expect(documentedProperty(Passwords, 'chosen')).toMatchObject({
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
    const current = documentedProperty(Passwords, 'current');
    expect(current).toMatchObject({
      maxLength: 200,
      format: 'password',
      description: 'Your current password.',
    });
    expect(current).not.toHaveProperty('minLength');
    expect(documentedProperty(ChangePasswordDto, 'currentPassword')).not.toHaveProperty(
      'description',
    );
  });
});

describe("both answer exactly as the stacked declarations they replaced (the contract's 400 texts)", () => {
  it.each([
    [{ chosen: 12345678, current: 'x' }],
    [{ chosen: 'p'.repeat(7), current: 'x' }],
    [{ chosen: 'p'.repeat(201), current: 'x'.repeat(201) }],
    [{ current: 42 }],
    [{}],
    [{ chosen: 'p'.repeat(8), current: null }],
    [{ chosen: 'p'.repeat(8), current: 'x' }],
  ])('%j', async (value) => {
    expect(await answer(value)).toBe(await validationAnswer(StackedAsBefore, value));
  });
});
