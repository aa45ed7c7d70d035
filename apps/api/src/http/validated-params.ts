import { Body as NestBody, Query as NestQuery, type Type } from '@nestjs/common';
import { ApiValidationPipe } from './validation.pipe';

/**
 * The one validation pipe, on the parameters that carry input to validate (issue 28). It is not
 * global: Nest runs a global pipe on every parameter, a custom decorator's too (`@KeyCaller()`,
 * `@CurrentApiKey()`…), three promises each, so every keyed read paid for a pipe that validated
 * nothing (whoami ~8 % of its CPU). A path parameter is a string and needs none (`@IdParam()`
 * has its own pipe). ESLint refuses Nest's own `Body` and `Query` in apps/api/src.
 */
const VALIDATION = new ApiValidationPipe();

/** `@Body()`: the request body, validated against the parameter's DTO (400 VALIDATION_FAILED). */
export const Body = (): ParameterDecorator => NestBody(VALIDATION);

/** `@Query()`: the query string, validated against the parameter's DTO (400 VALIDATION_FAILED). */
export const Query = (): ParameterDecorator => NestQuery(VALIDATION);

/**
 * `@RawQuery()`: the query string as the platform parsed it, through no pipe — for a route that
 * parses its query itself and answers its own 400s (the audit log's `parseAuditQuery`). A
 * parameter without a pipe costs Nest no promise; the validation pipe on an untyped query
 * validated nothing and cost the audit page ~5 µs (issue 28, session 23).
 */
export const RawQuery = (): ParameterDecorator => NestQuery();

/**
 * A query validated as `@Query()` validates it (the same value, the same 400), for a route that
 * takes it through `@RawQuery()`, reads its common forms itself, and leaves the rest to the pipe.
 */
export function validateQuery<T>(query: unknown, metatype: Type<T>): Promise<T> {
  return VALIDATION.transform(query, { type: 'query', metatype }) as Promise<T>;
}
