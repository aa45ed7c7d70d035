import { PAGE_TEXTS_KEPT, pageAsOneRow, type PageRowShape } from './page-row';

const shape = (memo?: Map<string, string>): PageRowShape => ({
  joined: { column: 'body', as: 'bodies' },
  order: 'q.at DESC, q.id DESC',
  last: { last_id: 'p.id' },
  more: (onPage) => [`count(*) FILTER (WHERE ${onPage} AND p.body IS NULL) AS empty`],
  memo,
});
const page = (where: string, params: unknown[]) => ({
  sql: `SELECT id, at, body FROM t WHERE ${where} ORDER BY at DESC, id DESC LIMIT $${params.length}`,
  params,
});

describe('pageAsOneRow', () => {
  it('numbers the rows after the LIMIT, the take its last parameter', () => {
    const { sql, params } = pageAsOneRow(page('org = $1', ['o', 51]), shape());
    expect(params).toEqual(['o', 51]);
    expect(sql).toContain("string_agg(p.body, ',' ORDER BY p.n) FILTER (WHERE p.n < $2) AS bodies");
    expect(sql).toContain('min(p.id) FILTER (WHERE p.n = $2 - 1) AS last_id');
    expect(sql).toContain('count(*) FILTER (WHERE p.n < $2 AND p.body IS NULL) AS empty');
    expect(sql).toContain(
      'row_number() OVER (ORDER BY q.at DESC, q.id DESC) AS n, q.* FROM (SELECT id, at, body FROM t',
    );
  });

  it('with a memo, answers the text it builds without one, the same string each time, with the call’s parameters', () => {
    const memo = new Map<string, string>();
    const plain = pageAsOneRow(page('org = $1', ['o', 51]), shape());
    const first = pageAsOneRow(page('org = $1', ['o', 51]), shape(memo));
    const again = pageAsOneRow(page('org = $1', ['p', 11]), shape(memo));
    expect(first.sql).toBe(plain.sql);
    expect(again.sql).toBe(first.sql);
    expect(again.params).toEqual(['p', 11]);
    expect([...memo.values()]).toEqual([plain.sql]);
    const other = pageAsOneRow(page('org = $1 AND kind = $2', ['o', 'x', 51]), shape(memo));
    expect(other.sql).toBe(
      pageAsOneRow(page('org = $1 AND kind = $2', ['o', 'x', 51]), shape()).sql,
    );
    expect(other.sql).not.toBe(first.sql);
    expect(memo.size).toBe(2);
  });

  it('keeps at most PAGE_TEXTS_KEPT texts, and answers right past them', () => {
    const memo = new Map<string, string>();
    for (let i = 0; i < PAGE_TEXTS_KEPT + 10; i++) {
      const p = page(`org = $1 AND n = ${i}`, ['o', 51]);
      expect(pageAsOneRow(p, shape(memo)).sql).toBe(pageAsOneRow(p, shape()).sql);
      expect(memo.size).toBeLessThanOrEqual(PAGE_TEXTS_KEPT);
    }
  });
});
