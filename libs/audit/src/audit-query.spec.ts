import { parseAuditQuery, searchIndexQuery, searchTsquery, searchWalkQuery } from './audit-query';

const ORG = '6aba50bc-8b1f-4c19-8090-f9042950ef24';

describe('searchTsquery', () => {
  it('requires every word: exact expansions OR-ed, unexpanded words as prefixes', () => {
    const filter = {
      words: ['dep', 'pro', 'x'],
      expanded: [['deploy', 'deployed'], ['prod'], null],
    };
    expect(searchTsquery(filter)).toBe(`('deploy' | 'deployed') & ('prod') & 'x':*`);
  });

  it('keys every lexeme with the organisation for the word index', () => {
    expect(searchTsquery({ words: ['de'], expanded: [null] }, `${ORG}:`)).toBe(`'${ORG}:de':*`);
    expect(searchTsquery({ words: ['de'], expanded: [['deploy']] }, `${ORG}:`)).toBe(
      `('${ORG}:deploy')`,
    );
  });

  it('quotes each lexeme, so tsquery syntax in a word stays literal', () => {
    // Folded words hold only letters and digits; the quoting does not rely on that.
    expect(searchTsquery({ words: [`a' | 'b`, 'c\\'] })).toBe(`'a'' | ''b':* & 'c\\\\':*`);
  });

  it('takes its words from the folded query text, hostile characters dropped', () => {
    const { filter } = parseAuditQuery({ q: `'&|!:*() \\ Déploy` });
    expect(searchTsquery(filter)).toBe(`'deploy':*`);
  });
});

describe('search plans', () => {
  const filter = { words: ['deploy'], expanded: [['deploy']], category: 'interrupt' as const };
  const after = { createdAt: '2026-01-01T00:00:00.000Z', seq: '42' };

  it('binds the organisation first, and the query text, never inlines them', () => {
    for (const q of [
      searchWalkQuery(ORG, filter, '100', after, 51, 2000),
      searchIndexQuery(ORG, filter, '100', after, 51),
    ]) {
      expect(q.params[0]).toBe(ORG);
      expect(q.sql).not.toContain(ORG);
      expect(q.sql).not.toContain('deploy');
      expect(q.sql).toContain('organisation_id = $1');
    }
  });

  it('walks a bounded window in order, returning its last entry as a sentinel', () => {
    const q = searchWalkQuery(ORG, filter, '100', after, 51, 2000);
    expect(q.sql).toContain('ORDER BY created_at DESC, seq DESC LIMIT $7) w');
    expect(q.sql).toContain('WHERE hit OR n = $7 LIMIT $8');
    expect(q.params).toEqual([
      ORG,
      '100',
      after.createdAt,
      after.seq,
      'interrupt',
      `('deploy')`,
      2000,
      51,
    ]);
  });

  it('drives the index with the exact words and checks a broad prefix on the rows', () => {
    const q = searchIndexQuery(
      ORG,
      { words: ['zyzzyva', '1'], expanded: [['zyzzyva'], null] },
      '100',
      undefined,
      51,
    );
    expect(q.sql).toContain(
      'audit_log_search_keys(organisation_id, search) @@ $3::tsquery AND search @@ $4::tsquery',
    );
    expect(q.params).toEqual([ORG, '100', `('${ORG}:zyzzyva')`, `'1':*`, 51]);
    // Only broad prefixes: they drive the index themselves.
    const prefixes = searchIndexQuery(
      ORG,
      { words: ['1'], expanded: [null] },
      '100',
      undefined,
      51,
    );
    expect(prefixes.params).toEqual([ORG, '100', `'${ORG}:1':*`, 51]);
  });

  it('keeps the scope outside the word index scan of the second plan', () => {
    const q = searchIndexQuery(ORG, filter, '100', after, 51);
    const [inner, outer] = q.sql.split('), page AS (');
    expect(inner).toContain('audit_log_search_keys(organisation_id, search) @@');
    expect(inner).toContain('category = ');
    expect(inner).not.toContain('organisation_id = ');
    expect(outer).toContain(
      'organisation_id = $1 AND seq <= $2 AND (created_at, seq) < ($3::timestamptz, $4::bigint)',
    );
    expect(q.params).toEqual([
      ORG,
      '100',
      after.createdAt,
      after.seq,
      'interrupt',
      `('${ORG}:deploy')`,
      51,
    ]);
  });
});
