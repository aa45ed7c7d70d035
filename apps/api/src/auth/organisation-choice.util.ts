import type { HttpRequest } from '../http/platform';
import { DomainError } from '@interlock/domain';

export const ORGANISATION_HEADER = 'x-organisation-id';
export const ORGANISATION_QUERY = 'organisationId';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The organisation a signed-in person's request asks to act for: the `x-organisation-id`
 * header, or — on routes read with EventSource, which cannot send headers — the
 * `organisationId` query parameter. `undefined` when the request names none. It is only a
 * request: the guard admits it only if the person holds a current membership of it.
 */
export function requestedOrganisation(req: HttpRequest, queryAllowed: boolean): string | undefined {
  const header = req.headers[ORGANISATION_HEADER];
  const query = queryAllowed
    ? (req.query as Record<string, unknown> | undefined)?.[ORGANISATION_QUERY]
    : undefined;
  const fromHeader =
    header === undefined ? undefined : parse(header, `${ORGANISATION_HEADER} header`);
  const fromQuery = query === undefined ? undefined : parse(query, `${ORGANISATION_QUERY}`);
  if (fromHeader !== undefined && fromQuery !== undefined && fromHeader !== fromQuery) {
    throw new DomainError(
      'VALIDATION_FAILED',
      `${ORGANISATION_HEADER} and ${ORGANISATION_QUERY} name different organisations.`,
    );
  }
  return fromHeader ?? fromQuery;
}

function parse(value: unknown, name: string): string {
  if (typeof value !== 'string' || !UUID.test(value))
    throw new DomainError('VALIDATION_FAILED', `${name} must be a UUID.`);
  return value.toLowerCase();
}
