import { combineStatements, statementParts } from './combined-statement';

// Statements whose answers nobody reads, run as one (issue 28: the outbox's writes of one event).
describe('statementParts', () => {
  it('takes a WITH list apart from the statement it leads to, quoted parentheses and all', () => {
    const parts = statementParts(`
WITH targets AS (
  SELECT id FROM webhooks WHERE note = 'a ) b' AND (x OR y)
), event AS (INSERT INTO e (id) SELECT $1 WHERE EXISTS (SELECT 1 FROM targets) RETURNING id)
INSERT INTO d (id) SELECT id FROM event`);
    expect(parts).toEqual({
      ctes: [
        {
          name: 'targets',
          text: "targets AS (\n  SELECT id FROM webhooks WHERE note = 'a ) b' AND (x OR y)\n)",
        },
        {
          name: 'event',
          text: 'event AS (INSERT INTO e (id) SELECT $1 WHERE EXISTS (SELECT 1 FROM targets) RETURNING id)',
        },
      ],
      body: 'INSERT INTO d (id) SELECT id FROM event',
    });
  });

  it('leaves a statement without WITH whole, and refuses what it cannot take apart', () => {
    expect(statementParts('  UPDATE t SET a = $1 WHERE b = $2 ')).toEqual({
      ctes: [],
      body: 'UPDATE t SET a = $1 WHERE b = $2',
    });
    expect(() => statementParts('WITH RECURSIVE r AS (SELECT 1) SELECT 1')).toThrow(
      /not a plain WITH list/,
    );
    expect(() => statementParts('WITH r AS MATERIALIZED (SELECT 1) SELECT 1')).toThrow(
      /not a plain WITH list/,
    );
    expect(() => statementParts('WITH r AS (SELECT (1) SELECT 1')).toThrow(/unbalanced/);
  });
});

describe('combineStatements', () => {
  it('renumbers each statement after the values before it; all but the last become WITH entries', () => {
    const one = combineStatements([
      {
        text: 'WITH a AS (SELECT $1::int AS v) INSERT INTO t (v) SELECT v + $2 FROM a',
        values: [1, 2],
      },
      { text: 'UPDATE u SET x = $2 WHERE id = $1', values: ['id', 'x'] },
      { text: 'WITH b AS (SELECT $1::text AS w) INSERT INTO s (w) SELECT w FROM b', values: ['w'] },
    ]);
    expect(one).toEqual({
      text: [
        'WITH a AS (SELECT $1::int AS v),',
        'write_0 AS (INSERT INTO t (v) SELECT v + $2 FROM a),',
        'write_1 AS (UPDATE u SET x = $4 WHERE id = $3),',
        'b AS (SELECT $5::text AS w)',
        'INSERT INTO s (w) SELECT w FROM b',
      ].join('\n'),
      values: [1, 2, 'id', 'x', 'w'],
    });
  });

  it('is the statement itself when there is one, and undefined when two share a WITH name', () => {
    expect(combineStatements([{ text: 'UPDATE u SET x = $1', values: [1] }])).toEqual({
      text: 'UPDATE u SET x = $1',
      values: [1],
    });
    const twice = { text: 'WITH a AS (SELECT $1 AS v) INSERT INTO t SELECT v FROM a', values: [1] };
    expect(combineStatements([twice, twice])).toBeUndefined();
  });

  it('leaves quoted text as it is, and refuses comments and dollar-quoting', () => {
    const first = { text: 'UPDATE u SET x = $1', values: [1] };
    expect(
      combineStatements([
        first,
        { text: `INSERT INTO t (a, b) VALUES ($1, '$1 ''$2''')`, values: [2] },
      ]),
    ).toEqual({
      text: `WITH write_0 AS (UPDATE u SET x = $1)\nINSERT INTO t (a, b) VALUES ($2, '$1 ''$2''')`,
      values: [1, 2],
    });
    for (const text of [
      'INSERT INTO t VALUES ($1) -- $1',
      'INSERT INTO t VALUES ($1) /* $1 */',
      'INSERT INTO t VALUES ($$ $1 $$)',
      'INSERT INTO t VALUES ($q$ $1 $q$)',
    ])
      expect(combineStatements([first, { text, values: [2] }])).toBeUndefined();
  });

  it('combines a shape it has seen with the values given now, renumbered by their counts', () => {
    const update = 'UPDATE u SET x = $1 WHERE id = $2';
    const insert = 'INSERT INTO t (a) SELECT $1';
    const combined = (before: unknown[], last: string) =>
      combineStatements([
        { text: update, values: before },
        { text: insert, values: [last] },
      ]);
    // The same texts twice: the same text, each call's values.
    for (const [before, last] of [
      [[1, 'a'], 'first'],
      [[2, 'b'], 'second'],
    ] as const)
      expect(combined([...before], last)).toEqual({
        text: `WITH write_0 AS (${update})\nINSERT INTO t (a) SELECT $3`,
        values: [...before, last],
      });
    // The same texts with another count of values before the last: numbered after those.
    expect(combined([4], 'fourth')).toEqual({
      text: `WITH write_0 AS (${update})\nINSERT INTO t (a) SELECT $2`,
      values: [4, 'fourth'],
    });
    // One that cannot be combined stays so the second time.
    const twice = { text: 'WITH a AS (SELECT $1 AS v) INSERT INTO t SELECT v FROM a', values: [1] };
    expect(combineStatements([twice, twice])).toBeUndefined();
    expect(combineStatements([twice, twice])).toBeUndefined();
  });
});
