import { DomainError } from '@interlock/domain';
import type { CursorScope } from './cursor-codec';
import type { KeysetCursorCodec, KeysetPosition } from './keyset-cursor';

/**
 * Where a page of a keyset listing starts: after the position `cursor` holds for this
 * organisation and these filters (`VALIDATION_FAILED` when it does not verify), or at the
 * start without one.
 */
export function keysetAfter(
  codec: KeysetCursorCodec,
  scope: CursorScope,
  cursor: string | undefined,
): KeysetPosition | undefined {
  if (cursor === undefined) return undefined;
  const after = codec.decode(scope, cursor);
  if (after === undefined) {
    throw new DomainError(
      'VALIDATION_FAILED',
      'cursor is not a valid cursor for this listing (use nextCursor with the same filters).',
    );
  }
  return after;
}

/**
 * One page of a keyset listing: decodes `cursor` for this organisation and these filters
 * (`keysetAfter`), asks `fetch` for up to `limit + 1` rows after that position, and encodes the
 * next cursor from the page's last row when there are more.
 */
export async function keysetPage<Row extends { id: string }>(
  codec: KeysetCursorCodec,
  request: { organisationId: string; filters: string; cursor: string | undefined; limit: number },
  positionOf: (row: Row) => Date,
  fetch: (after: KeysetPosition | undefined, take: number) => Promise<Row[]>,
): Promise<{ rows: Row[]; nextCursor: string | null }> {
  const scope = { organisationId: request.organisationId, filters: request.filters };
  const after = keysetAfter(codec, scope, request.cursor);
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
