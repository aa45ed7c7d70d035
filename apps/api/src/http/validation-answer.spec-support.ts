import { DomainError } from '@interlock/domain';
import { ApiValidationPipe } from './validation.pipe';

// @nestjs/swagger's metadata key of a DTO's property (its DECORATORS constants, not exported).
const API_MODEL_PROPERTIES = 'swagger/apiModelProperties';

/** What the API answers a body for a DTO: 'accepted', or its 400's code and text. */
export async function validationAnswer(
  dto: new () => object,
  value: Record<string, unknown>,
): Promise<string> {
  try {
    await new ApiValidationPipe().transform(value, { type: 'body', metatype: dto });
    return 'accepted';
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return `${error.code}: ${error.message}`;
  }
}

/** What the contract says of a DTO's property (its `@ApiProperty` options). */
export function documentedProperty(dto: new () => object, property: string): unknown {
  return Reflect.getMetadata(API_MODEL_PROPERTIES, dto.prototype as object, property);
}
