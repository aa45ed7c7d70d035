import { ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import { ApiError } from './api-error';

/**
 * The global validation pipe: strips nothing silently — unknown fields are refused — and
 * answers 400 VALIDATION_FAILED with a message naming each offending parameter by its full path
 * (`actionRequests.0.name must be a string`).
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
    const input = metadata.type === 'body' && (value === undefined || value === null) ? {} : value;
    if (metadata.type === 'body' && (typeof input !== 'object' || Array.isArray(input))) {
      throw new ApiError('VALIDATION_FAILED', 'body: must be a JSON object.');
    }
    return super.transform(input, metadata);
  }
}

export function describeValidationErrors(errors: readonly ValidationError[], parent = ''): string {
  const parts: string[] = [];
  for (const error of errors) {
    const path = parent === '' ? error.property : `${parent}.${error.property}`;
    for (const text of Object.values(error.constraints ?? {})) {
      if (text.startsWith(`property ${error.property} `)) {
        parts.push(`property ${path}${text.slice(`property ${error.property}`.length)}`);
      } else if (text.startsWith(`${error.property} `)) {
        parts.push(`${path}${text.slice(error.property.length)}`);
      } else {
        parts.push(`${path}: ${text}`);
      }
    }
    if (error.children && error.children.length > 0) {
      parts.push(describeValidationErrors(error.children, path));
    }
  }
  return parts.filter((p) => p !== '').join('; ');
}
