import { applyDecorators, type Type } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';

/** A route's contract entry: its operation id, summary (and description), and its success body. */
export interface OperationDoc {
  operationId: string;
  summary: string;
  description?: string;
  /** Answers 200 with this body. */
  ok?: Type<unknown>;
  /** Answers 201 with this body. */
  created?: Type<unknown>;
}

/**
 * One decorator for what every route declares to the contract: `ApiOperation` and, when the route
 * answers a body, its `ApiOkResponse`/`ApiCreatedResponse` (a 204 route adds `@NoContent`). Errors
 * are derived from the access declaration and `OPERATION_ERRORS` (openapi-document.ts).
 */
export function Operation({ ok, created, ...operation }: OperationDoc): MethodDecorator {
  const decorators: MethodDecorator[] = [ApiOperation(operation)];
  if (ok !== undefined) decorators.push(ApiOkResponse({ type: ok }));
  if (created !== undefined) decorators.push(ApiCreatedResponse({ type: created }));
  return applyDecorators(...decorators);
}
