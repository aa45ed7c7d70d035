/** A statement and its parameters. */
export interface PageStatement {
  sql: string;
  params: unknown[];
}

/** What the one row of a page (`pageAsOneRow`) holds besides its joined column and `taken`. */
export interface PageRowShape {
  /** The column of the page's rows joined with commas in the listing's order, and its name in the row. */
  readonly joined: { readonly column: string; readonly as: string };
  /**
   * The listing's order as an ORDER BY list over the page's own columns (the page is `q`), ending
   * in a unique column: it numbers the page's rows. Columns the page is ordered by, so that
   * Postgres keeps the page's order rather than sorting again.
   */
  readonly order: string;
  /** Columns of the page's last row (the `take - 1`th; null when there is none): name → expression over `p`. */
  readonly last: Readonly<Record<string, string>>;
  /** More columns of the one row; `onPage` is the condition that a row `p` is on the page (not the `take`th). */
  readonly more?: (onPage: string) => readonly string[];
  /**
   * The one-row statement of each page statement seen, by the page's text: given only by a shape
   * that is the same object for every page it makes (a constant), so that a kept text is that
   * shape's (at most PAGE_TEXTS_KEPT of them).
   */
  readonly memo?: Map<string, string>;
}

/**
 * A keyset page read as one row (issue 28 §4): `page` (its rows in the listing's order, its
 * last parameter its LIMIT, `take` — a page and one row more, to tell whether another follows)
 * becomes one row holding the page's `joined` column joined by Postgres in that order, how many
 * of the `take` rows there were (`taken`: `take` means a next page) and the place of the page's
 * last row — one string for the driver to decode and nothing for the service to join.
 *
 * The rows are numbered one level out, after the page's LIMIT: numbered inside the page, by a
 * window over the page's own rows, they would be numbered before the LIMIT, so that where no
 * ordered index serves the order Postgres sorts every matching row rather than keeping the
 * `take` first.
 */
export function pageAsOneRow(page: PageStatement, shape: PageRowShape): PageStatement {
  // A listing's few shapes of page come back again and again: the same text, built once (and,
  // being the same string, hashed once where its prepared statement is looked up).
  const memo = shape.memo;
  const kept = memo?.get(page.sql);
  if (kept !== undefined) return { sql: kept, params: page.params };
  const take = `$${page.params.length}`;
  const onPage = `p.n < ${take}`;
  const columns = [
    `string_agg(p.${shape.joined.column}, ',' ORDER BY p.n) FILTER (WHERE ${onPage}) AS ${shape.joined.as}`,
    'count(*)::int AS taken',
    ...(shape.more?.(onPage) ?? []),
    ...Object.entries(shape.last).map(
      ([name, value]) => `min(${value}) FILTER (WHERE p.n = ${take} - 1) AS ${name}`,
    ),
  ];
  const sql = `SELECT ${columns.join(',\n        ')}
      FROM (SELECT row_number() OVER (ORDER BY ${shape.order}) AS n, q.* FROM (${page.sql}) q) p`;
  if (memo !== undefined) {
    if (memo.size >= PAGE_TEXTS_KEPT) memo.clear();
    memo.set(page.sql, sql);
  }
  return { sql, params: page.params };
}

/** Texts a `PageRowShape.memo` keeps at most; past it the memory starts again. */
export const PAGE_TEXTS_KEPT = 500;
