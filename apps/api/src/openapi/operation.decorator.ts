import {
  applyDecorators,
  Controller,
  Delete,
  Get,
  HttpCode,
  Patch,
  Post,
  Put,
  type Type,
} from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { JsonText } from '@interlock/domain';

/** What a route declares to the contract beside its method, path and operation id. */
export interface OperationDoc {
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
 * Everything a route declares to the contract: `ApiOperation` and its success answer — 200 with a
 * body (`HttpCode(200)` with `ApiOkResponse`, so that a POST sends the status it documents), 201
 * with a body (`ApiCreatedResponse`), or a 204 (`HttpCode(204)` with `ApiNoContentResponse`).
 * Errors are derived from the access declaration and `OPERATION_ERRORS` (openapi-document.ts).
 */
function contractEntry(
  operationId: string,
  { ok, created, noContent, ...operation }: OperationDoc,
): MethodDecorator[] {
  const decorators: MethodDecorator[] = [ApiOperation({ operationId, ...operation })];
  if (ok !== undefined) decorators.push(HttpCode(200), ApiOkResponse({ type: ok }));
  if (created !== undefined) decorators.push(ApiCreatedResponse({ type: created }));
  if (noContent !== undefined) {
    decorators.push(
      HttpCode(204),
      ApiNoContentResponse(noContent === true ? {} : { description: noContent }),
    );
  }
  return decorators;
}

/** What the handler of a route documented by `D` answers: its `ok` or `created` type, or nothing. */
type AnswerOf<D extends OperationDoc> = D extends { ok: Type<infer R> }
  ? R
  : D extends { created: Type<infer R> }
    ? R
    : D extends { noContent: string | true }
      ? void
      : unknown;

/**
 * A method decorator that holds the handler to the answer its route documents — the value, or the
 * value already written out as JSON (`JsonText`, a hot read's) — so that the contract's type and
 * the handler's are one declaration, checked by the compiler.
 */
type RouteDecorator<R> = <H extends (...args: never[]) => Awaitable<R | JsonText<R>>>(
  target: object,
  key: string | symbol,
  descriptor: TypedPropertyDescriptor<H>,
) => void;

type Awaitable<T> = T | Promise<T>;

type Route = <D extends OperationDoc>(
  path: string,
  operationId: string,
  doc: D,
) => RouteDecorator<AnswerOf<D>>;

const route =
  (method: (path: string) => MethodDecorator): Route =>
  (path, operationId, doc) =>
    applyDecorators(method(path), ...contractEntry(operationId, doc));

/**
 * A route and its contract entry in one decorator: the HTTP method (the member's name), the path
 * (`'/'`: the controller's own, as Nest's `@Get()`), the operation id (verb first, never a
 * schema's name), then the summary and the success answer —
 * `@Operation.Get(':id', 'getWebhook', { summary: 'One webhook', ok: WebhookResponse })`. The
 * handler answers what `ok` or `created` names (or nothing, for `noContent`): the compiler holds
 * it to that, so the handler does not name its return type again.
 */
export const Operation = {
  Get: route(Get),
  Post: route(Post),
  Put: route(Put),
  Patch: route(Patch),
  Delete: route(Delete),
} as const;

/**
 * A controller and the tag its operations are listed under in the contract, in one decorator:
 * Nest's `@Controller(path)` with `@ApiTags(tag)` — `@ApiController('api/webhooks', 'webhooks')`.
 */
export const ApiController = (path: string, tag: string): ClassDecorator =>
  applyDecorators(Controller(path), ApiTags(tag));
