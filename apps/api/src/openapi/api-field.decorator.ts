import { ApiProperty } from '@nestjs/swagger';

/** The options a formatted string field takes beside its format. */
export interface FormattedFieldOptions {
  description?: string;
  example?: string;
  /** `string | null` in TypeScript: the contract says `type: string` with `nullable: true`. */
  nullable?: boolean;
}

/**
 * A string field of the contract in one of its formats, as every DTO declares it:
 * `@ApiProperty({ format })`, or with `type: String` where it may be null (the reflected type of
 * `string | null` is `Object`).
 */
const formatted =
  (format: string) =>
  (options: FormattedFieldOptions = {}): PropertyDecorator =>
    ApiProperty(
      options.nullable === true ? { type: String, format, ...options } : { format, ...options },
    );

/** An instant: an ISO 8601 date-time string (`@ApiProperty({ format: 'date-time' })`). */
export const ApiDateTime = formatted('date-time');

/** An id: a UUID string (`@ApiProperty({ format: 'uuid' })`). */
export const ApiUuid = formatted('uuid');
