const REQUIRE_ANY_OF = Symbol('interlock:require-any-of');

/**
 * A body DTO whose fields are each optional but not all at once (an update that changes
 * nothing is a mistake): the validation pipe answers 400 when none of `fields` is given, and
 * the contract says `minProperties: 1`.
 */
export function RequireAnyOf(...fields: string[]): ClassDecorator {
  return (target) => {
    Reflect.defineMetadata(REQUIRE_ANY_OF, fields, target);
  };
}

/** The fields a DTO class requires at least one of, if it declares any. */
export function requiredAnyOf(target: unknown): readonly string[] | undefined {
  return typeof target === 'function'
    ? (Reflect.getMetadata(REQUIRE_ANY_OF, target) as string[] | undefined)
    : undefined;
}
