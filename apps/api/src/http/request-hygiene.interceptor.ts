import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import type { Observable } from 'rxjs';
import { ApiError } from './api-error';
import { jsonProblem } from './json-hygiene.util';
import { NOT_JSON } from './json-body.middleware';

/**
 * Runs after the guards and before the validation pipe (SPEC §4 check order: key, plan, then
 * input): a body that is not JSON → 415; a body or query holding what the database cannot take
 * (nesting deeper than 64, NUL, lone surrogates) → 400 naming the path, before the DTO
 * transformer sees it.
 */
@Injectable()
export class RequestHygieneInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<Request>();
    if (NOT_JSON.has(req)) throw ApiError.of('UNSUPPORTED_MEDIA_TYPE');
    const problem = jsonProblem(req.query, 'query') ?? (req.body === undefined ? null : jsonProblem(req.body, 'body'));
    if (problem) throw new ApiError('VALIDATION_FAILED', problem);
    return next.handle();
  }
}
