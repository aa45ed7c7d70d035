import { ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import { ApiError } from './api-error';
import { requiredAnyOf } from './require-any-of.decorator';

/**
 * The global validation pipe: strips nothing silently — unknown fields are refused — and
 * answers 400 VALIDATION_FAILED with a message naming the first offending parameters by their
 * full path (`actionRequests.0.name must be a string`).
 */
export class ApiValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
      transform: true,
      validationError: { target: false, value: false },
      exceptionFactory: (errors) => new ApiError('VALIDATION_FAILED', describeValidationErrors(errors)),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // A missing body is validated as an empty object, so required fields are named.
    // (A JSON `null` is a body, and not an object.)
    const input = metadata.type === 'body' && value === undefined ? {} : value;
    if (metadata.type === 'body' && (typeof input !== 'object' || input === null || Array.isArray(input))) {
      throw new ApiError('VALIDATION_FAILED', 'body: must be a JSON object.');
    }
    const anyOf = metadata.type === 'body' ? requiredAnyOf(metadata.metatype) : undefined;
    const output: unknown = await super.transform(input, metadata);
    if (anyOf !== undefined && !anyOf.some((field) => (output as Record<string, unknown>)[field] !== undefined)) {
      throw new ApiError('VALIDATION_FAILED', `body: must hold at least one of ${anyOf.join(', ')}.`);
    }
    return output;
  }
}

/** A 400 names at most this many offending parameters, then how many more there are. */
const NAMED_PROBLEMS = 3;

/**
 * The message of a 400: the problems of the first offending parameters (up to three), each by
 * its full path, and how many more there are — short however many there are (a body with a
 * thousand unknown fields names the first, not all of them).
 */
export function describeValidationErrors(errors: readonly ValidationError[]): string {
  const offending: string[][] = [];
  collectProblems(errors, '', offending);
  if (offending.length === 0) return 'body: is not valid.';
  const named = offending.slice(0, NAMED_PROBLEMS).flat().join('; ');
  const rest = offending.length - NAMED_PROBLEMS;
  return rest <= 0 ? named : `${named} (and ${rest} more ${rest === 1 ? 'problem' : 'problems'})`;
}

/** Appends, per offending parameter (depth first), the messages that name it by its full path. */
function collectProblems(errors: readonly ValidationError[], parent: string, into: string[][]): void {
  for (const error of errors) {
    const path = parent === '' ? error.property : `${parent}.${error.property}`;
    const parts: string[] = [];
    for (const text of Object.values(error.constraints ?? {})) {
      if (text.startsWith(`property ${error.property} `)) {
        parts.push(`property ${path}${text.slice(`property ${error.property}`.length)}`);
      } else if (text.startsWith(`${error.property} `)) {
        parts.push(`${path}${text.slice(error.property.length)}`);
      } else {
        parts.push(`${path}: ${text}`);
      }
    }
    if (parts.length > 0) into.push(parts);
    if (error.children && error.children.length > 0) collectProblems(error.children, path, into);
  }
}
