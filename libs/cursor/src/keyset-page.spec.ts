import { DomainError } from '@interlock/domain';
import { KeysetCursorCodec } from './keyset-cursor';
import { keysetPage } from './keyset-page';

const codec = new KeysetCursorCodec('a-server-secret-of-enough-length-0123456789', 'things.list');
const rows = Array.from({ length: 5 }, (_, i) => ({
  id: `0b6f6f3e-2a43-4a39-9a0e-5b1c1d0e0f1${i}`,
  at: new Date(Date.UTC(2026, 10, 21, 10, 0, 5 - i)),
}));

/** Newest first, after the position if any. */
async function fetchAfter(after: { createdAt: Date; id: string } | undefined, take: number) {
  return rows.filter((r) => after === undefined || r.at < after.createdAt).slice(0, take);
}

describe('keysetPage', () => {
  const request = { organisationId: 'org-1', filters: 'all', limit: 2 };

  it('walks every row once, a page at a time, and ends with a null cursor', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await keysetPage(codec, { ...request, cursor }, (r) => r.at, fetchAfter);
      seen.push(...page.rows.map((r) => r.id));
      if (page.nextCursor === null) break;
      cursor = page.nextCursor;
    }
    expect(seen).toEqual(rows.map((r) => r.id));
  });

  it('refuses a cursor of other filters or another organisation with VALIDATION_FAILED', async () => {
    const { nextCursor } = await keysetPage(
      codec,
      { ...request, cursor: undefined },
      (r) => r.at,
      fetchAfter,
    );
    for (const other of [{ filters: 'some' }, { organisationId: 'org-2' }]) {
      const error = await keysetPage(
        codec,
        { ...request, ...other, cursor: nextCursor as string },
        (r) => r.at,
        fetchAfter,
      ).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({
        code: 'VALIDATION_FAILED',
        status: 400,
        message:
          'cursor is not a valid cursor for this listing (use nextCursor with the same filters).',
      });
    }
  });
});
