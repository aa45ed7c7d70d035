import { PasswordInput } from '@mantine/core';
import type { GetInputPropsReturnType } from '@mantine/form';

/** SPEC §8f: a password is 8 to 200 characters. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 200;

/** The rule every new password meets (sign-up, invitation, reset, change): a message, or null. */
export function newPasswordError(value: string): string | null {
  if (value.length < PASSWORD_MIN_LENGTH) return `Use at least ${PASSWORD_MIN_LENGTH} characters`;
  if (value.length > PASSWORD_MAX_LENGTH) return `Use at most ${PASSWORD_MAX_LENGTH} characters`;
  return null;
}

/** The "again" field's rule: it repeats the new password. */
export function repeatedPasswordError(value: string, password: string): string | null {
  return value === password ? null : 'The two passwords differ';
}

/**
 * A new password's inputs, one home for every form that sets one: the field (a password
 * manager's `new-password`, the length rule in its description) and, when `repeat` is given,
 * "<label> again". Validate them with `newPasswordError` and `repeatedPasswordError`.
 */
export function NewPasswordFields({
  label = 'Password',
  description,
  password,
  repeat,
}: {
  label?: string;
  /** Said after the length rule, e.g. what setting it does. */
  description?: string;
  password: GetInputPropsReturnType;
  repeat?: GetInputPropsReturnType;
}) {
  const rule = `${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters.`;
  return (
    <>
      <PasswordInput
        label={label}
        description={description === undefined ? rule : `${rule} ${description}`}
        autoComplete="new-password"
        required
        {...password}
      />
      {repeat !== undefined && (
        <PasswordInput label={`${label} again`} autoComplete="new-password" required {...repeat} />
      )}
    </>
  );
}
