import { applyDecorators, HttpCode, type Type } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
} from '@nestjs/swagger';

/** A route's contract entry: its operation id, summary (and description), and its success answer. */
export interface OperationDoc {
  operationId: string;
  summary: string;
  description?: string;
  /** Answers 200 with this body (a POST too: the status is set with it). */
  ok?: Type<unknown>;
  /** Answers 201 with this body. */
  created?: Type<unknown>;
  /**
   * Answers 204 with no body (with what that means, when it says more than the summary): the
   * status the route sends and the one the contract documents, declared together so that they
   * cannot disagree.
   */
  noContent?: string | true;
}

/**
 * One decorator for what every route declares to the contract: `ApiOperation` and its success
 * answer — 200 with a body (`HttpCode(200)` with `ApiOkResponse`, so that a POST sends the status
 * it documents), 201 with a body (`ApiCreatedResponse`), or a 204 (`HttpCode(204)` with
 * `ApiNoContentResponse`). Errors are derived from the access declaration and
 * `OPERATION_ERRORS` (openapi-document.ts).
 */
export function Operation({ ok, created, noContent, ...operation }: OperationDoc): MethodDecorator {
  const decorators: MethodDecorator[] = [ApiOperation(operation)];
  if (ok !== undefined) decorators.push(HttpCode(200), ApiOkResponse({ type: ok }));
  if (created !== undefined) decorators.push(ApiCreatedResponse({ type: created }));
  if (noContent !== undefined) {
    decorators.push(
      HttpCode(204),
      ApiNoContentResponse(noContent === true ? {} : { description: noContent }),
    );
  }
  return applyDecorators(...decorators);
}
