import { applyDecorators, HttpCode } from '@nestjs/common';
import { ApiNoContentResponse } from '@nestjs/swagger';

/**
 * A route that answers 204 with no body: the status it sends and the one the contract documents,
 * declared together so that they cannot disagree.
 */
export const NoContent = (description?: string) =>
  applyDecorators(
    HttpCode(204),
    ApiNoContentResponse(description === undefined ? {} : { description }),
  );
