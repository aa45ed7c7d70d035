import { buildMessage, ValidateBy, ValidationOptions } from 'class-validator';
import { isPermission } from '@interlock/domain';

/** A member permission of SPEC §6 (`apiKey.read`, `role.manage`, …), checked with `isPermission`. */
export function IsPermission(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isPermission',
      validator: {
        validate: (value: unknown) => isPermission(value),
        defaultMessage: buildMessage(
          (each) => `${each}$property must be a known permission`,
          options,
        ),
      },
    },
    options,
  );
}
