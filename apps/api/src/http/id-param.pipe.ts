import { Injectable, Param, PipeTransform } from '@nestjs/common';
import { DomainError } from '@interlock/domain';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A path id that is not a UUID names nothing: 404, like any unknown id. */
export function pathId(value: string): string {
  if (!UUID.test(value)) throw DomainError.of('NOT_FOUND');
  return value.toLowerCase();
}

/** `pathId` as a pipe. */
@Injectable()
export class IdPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    return pathId(value);
  }
}

/** `@IdParam() id` — the `:id` path parameter, a UUID, else 404. */
export const IdParam = (name = 'id') => Param(name, IdPipe);

/**
 * `@RawIdParam() id` — the `:id` path parameter as the route matched it, through no pipe, for a
 * hot route that reads it with `pathId` itself: a route whose parameters have no pipe skips Nest's
 * pipes step, its promises and their turns (issue 28, the PK read).
 */
export const RawIdParam = (name = 'id') => Param(name);
