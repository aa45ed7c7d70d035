import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { HttpRequest } from './platform';
import { DomainError } from '@interlock/domain';
import { jsonProblem } from './json-hygiene.util';
import { requestStateOf } from './request-state';
import { takesBody } from './reads-request-body.decorator';
import { describeValidationErrors } from './validation.pipe';

/**
 * The last guard, so it runs after the caller's guards and before the validation pipe (SPEC §4
 * check order: key, plan, then input): a body that is not JSON → 415; a body or query holding what the database cannot take
 * (nesting deeper than 64, NUL, lone surrogates, `__proto__` keys) → 400 naming the path, before
 * the DTO transformer sees it; a body other than `{}` sent to an endpoint that takes none
 * (`/end`, `/disconnect`, DELETEs…) → 400, since its fields are unknown (SPEC §5).
 *
 * A guard rather than an interceptor: with no interceptor at all, Nest calls the handler
 * directly instead of wrapping every request in rxjs observables bound to an AsyncResource
 * (issue 14, BENCHMARKS.md).
 */
@Injectable()
export class RequestHygieneGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const req = context.getArgByIndex<HttpRequest>(0);
    if (requestStateOf(req).notJson) throw DomainError.of('UNSUPPORTED_MEDIA_TYPE');
    const problem =
      jsonProblem(req.query, 'query') ??
      (req.body === undefined ? null : jsonProblem(req.body, 'body'));
    if (problem) throw new DomainError('VALIDATION_FAILED', problem);
    if (
      req.body !== undefined &&
      req.method !== 'GET' &&
      req.method !== 'HEAD' &&
      !takesBody(this.reflector, context)
    ) {
      const unexpected = unexpectedBodyProblem(req.body);
      if (unexpected) throw new DomainError('VALIDATION_FAILED', unexpected);
    }
    return true;
  }
}

/** An endpoint that takes no body accepts none (the middleware leaves `req.body` unset) or `{}`. */
function unexpectedBodyProblem(body: unknown): string | null {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return 'body: this endpoint takes no body (send none, or {}).';
  }
  const fields = Object.keys(body);
  if (fields.length === 0) return null;
  // Named like the validation pipe names unknown fields of a body that has a DTO.
  return describeValidationErrors(
    fields.map((property) => ({
      property,
      constraints: { whitelistValidation: `property ${property} should not exist` },
      children: [],
    })),
  );
}
