import { DomainError } from '@interlock/domain';
import type { KeysetCursorCodec, KeysetPosition } from './keyset-cursor';

/**
 * One page of a keyset listing: decodes `cursor` for this organisation and these filters
 * (`VALIDATION_FAILED` when it does not verify), asks `fetch` for up to `limit + 1` rows after
 * that position, and encodes the next cursor from the page's last row when there are more.
 */
export async function keysetPage<Row extends { id: string }>(
  codec: KeysetCursorCodec,
  request: { organisationId: string; filters: string; cursor: string | undefined; limit: number },
  positionOf: (row: Row) => Date,
  fetch: (after: KeysetPosition | undefined, take: number) => Promise<Row[]>,
): Promise<{ rows: Row[]; nextCursor: string | null }> {
  const scope = { organisationId: request.organisationId, filters: request.filters };
  let after: KeysetPosition | undefined;
  if (request.cursor !== undefined) {
    after = codec.decode(scope, request.cursor);
    if (after === undefined) {
      throw new DomainError(
        'VALIDATION_FAILED',
        'cursor is not a valid cursor for this listing (use nextCursor with the same filters).',
      );
    }
  }
  const rows = await fetch(after, request.limit + 1);
  const page = rows.slice(0, request.limit);
  const last = page[page.length - 1];
  return {
    rows: page,
    nextCursor:
      rows.length > request.limit && last !== undefined
        ? codec.encode(scope, { createdAt: positionOf(last), id: last.id })
        : null,
  };
}
