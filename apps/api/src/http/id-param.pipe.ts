import { Injectable, Param, PipeTransform } from '@nestjs/common';
import { DomainError } from '@interlock/domain';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A path id that is not a UUID names nothing: 404, like any unknown id. */
@Injectable()
export class IdPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!UUID.test(value)) throw DomainError.of('NOT_FOUND');
    return value.toLowerCase();
  }
}

/** `@IdParam() id` — the `:id` path parameter, a UUID, else 404. */
export const IdParam = (name = 'id') => Param(name, IdPipe);
