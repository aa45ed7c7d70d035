import { ValidateIf } from 'class-validator';

/**
 * An optional field: left out, it is not validated; given — `null` included — it must pass the
 * field's checks. (class-validator's `@IsOptional()` also waves `null` through, which the
 * contract does not allow unless it says `nullable`.)
 */
export const OptionalField = () =>
  ValidateIf((_object: unknown, value: unknown) => value !== undefined);
