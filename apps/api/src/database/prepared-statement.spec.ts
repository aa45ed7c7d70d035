import { PreparedStatement, StatementResult } from './prepared-statement';

/** The messages an execution writes, as node-postgres' Connection would send them. */
function fakeConnection() {
  const sent: string[] = [];
  return {
    sent,
    stream: { cork: () => sent.push('cork'), uncork: () => sent.push('uncork') },
    parsedStatements: {} as Record<string, string | undefined>,
    submittedNamedStatements: {} as Record<string, string | undefined>,
    parse: (m: { name: string }) => sent.push(`parse ${m.name}`),
    bind: (m: { statement: string; values: (string | null)[] }) =>
      sent.push(`bind ${m.statement} ${JSON.stringify(m.values)}`),
    describe: () => sent.push('describe'),
    execute: () => sent.push('execute'),
    sync: () => sent.push('sync'),
    sendCopyFail: () => sent.push('copy-fail'),
  };
}

const INT4 = 23;
const TEXT = 25;
const JSONB = 3802;

function settled(statement: PreparedStatement, params: unknown[]) {
  const execution = statement.execution(params);
  if (!execution) throw new Error('no execution');
  const results: { error: Error | null; result?: StatementResult }[] = [];
  execution.callback = (error, result) => results.push({ error, result });
  return { execution, results };
}

describe('PreparedStatement', () => {
  it('parses and describes once per connection; later executions there are Bind, Execute and Sync only', () => {
    const statement = new PreparedStatement('SELECT $1::int AS n');
    const conn = fakeConnection();
    const first = settled(statement, [1]);
    first.execution.submit(conn);
    expect(conn.sent).toEqual([
      'cork',
      `parse ${statement.name}`,
      `bind ${statement.name} ["1"]`,
      'describe',
      'execute',
      'sync',
      'uncork',
    ]);
    // The client records the parse when Postgres completes it.
    conn.parsedStatements[statement.name] = statement.text;
    first.execution.handleRowDescription({ fields: [{ name: 'n', dataTypeID: INT4 }] });
    first.execution.handleDataRow({ fields: ['1'] });
    first.execution.handleCommandComplete({ text: 'SELECT 1' });
    first.execution.handleReadyForQuery();
    expect(first.results).toEqual([
      { error: null, result: { command: 'SELECT', rowCount: 1, rows: [{ n: 1 }] } },
    ]);

    conn.sent.length = 0;
    const second = settled(statement, [2]);
    second.execution.submit(conn);
    expect(conn.sent).toEqual([
      'cork',
      `bind ${statement.name} ["2"]`,
      'execute',
      'sync',
      'uncork',
    ]);
    second.execution.handleDataRow({ fields: ['2'] });
    second.execution.handleCommandComplete({ text: 'SELECT 1' });
    second.execution.handleReadyForQuery();
    expect(second.results[0].result?.rows).toEqual([{ n: 2 }]);

    // Another connection parses it, and describes it for itself (its session's statement).
    const other = fakeConnection();
    settled(statement, [3]).execution.submit(other);
    expect(other.sent).toEqual([
      'cork',
      `parse ${statement.name}`,
      `bind ${statement.name} ["3"]`,
      'describe',
      'execute',
      'sync',
      'uncork',
    ]);
  });

  it('describes a statement the connection parsed without a description (e.g. through the driver)', () => {
    const statement = new PreparedStatement('SELECT $1::int AS n');
    const conn = fakeConnection();
    conn.parsedStatements[statement.name] = statement.text;
    settled(statement, [1]).execution.submit(conn);
    expect(conn.sent).toEqual([
      'cork',
      `bind ${statement.name} ["1"]`,
      'describe',
      'execute',
      'sync',
      'uncork',
    ]);
  });

  it('describes again on a connection where it is parsed again', () => {
    const statement = new PreparedStatement('SELECT $1::int AS n');
    const conn = fakeConnection();
    const first = settled(statement, [1]);
    first.execution.submit(conn);
    first.execution.handleRowDescription({ fields: [{ name: 'n', dataTypeID: INT4 }] });
    first.execution.handleReadyForQuery();
    // A failed Parse: the client forgets the statement, so the next execution parses and describes.
    delete conn.submittedNamedStatements[statement.name];
    conn.sent.length = 0;
    settled(statement, [2]).execution.submit(conn);
    expect(conn.sent).toContain('describe');
  });

  it('makes a column named __proto__ a property of the row, as the driver does', () => {
    const { execution, results } = settled(new PreparedStatement('SELECT 1'), []);
    execution.submit(fakeConnection());
    execution.handleRowDescription({
      fields: [
        { name: '__proto__', dataTypeID: TEXT },
        { name: 'x', dataTypeID: INT4 },
      ],
    });
    execution.handleDataRow({ fields: ['a', '1'] });
    execution.handleReadyForQuery();
    const row = results[0].result?.rows[0] as Record<string, unknown>;
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(Object.keys(row)).toEqual(['__proto__', 'x']);
    expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toBe('a');
  });

  it('learns that a statement returns no rows when its description brings none', () => {
    const statement = new PreparedStatement('UPDATE t SET a = $1');
    const conn = fakeConnection();
    const first = settled(statement, ['x']);
    first.execution.submit(conn);
    first.execution.handleCommandComplete({ text: 'UPDATE 3' });
    first.execution.handleReadyForQuery();
    expect(first.results).toEqual([
      { error: null, result: { command: 'UPDATE', rowCount: 3, rows: [] } },
    ]);
    conn.sent.length = 0;
    settled(statement, ['y']).execution.submit(conn);
    expect(conn.sent).not.toContain('describe');
  });

  it('decodes each column with the driver parser for its type, and nulls as null', () => {
    const statement = new PreparedStatement('SELECT a, b, c');
    const { execution, results } = settled(statement, []);
    execution.submit(fakeConnection());
    execution.handleRowDescription({
      fields: [
        { name: 'a', dataTypeID: INT4 },
        { name: 'b', dataTypeID: TEXT },
        { name: 'c', dataTypeID: JSONB },
      ],
    });
    execution.handleDataRow({ fields: ['7', '7', '{"k": [1]}'] });
    execution.handleDataRow({ fields: [null, null, null] });
    execution.handleCommandComplete({ text: 'SELECT 2' });
    execution.handleReadyForQuery();
    expect(results[0].result?.rows).toEqual([
      { a: 7, b: '7', c: { k: [1] } },
      { a: null, b: null, c: null },
    ]);
  });

  it('reports a row it cannot decode at the end of the answer, once', () => {
    const statement = new PreparedStatement('SELECT c');
    const { execution, results } = settled(statement, []);
    execution.submit(fakeConnection());
    execution.handleRowDescription({ fields: [{ name: 'c', dataTypeID: JSONB }] });
    execution.handleDataRow({ fields: ['{not json'] });
    expect(results).toEqual([]);
    execution.handleDataRow({ fields: ['{}'] });
    execution.handleCommandComplete({ text: 'SELECT 2' });
    execution.handleReadyForQuery();
    execution.handleError(new Error('late'));
    expect(results).toHaveLength(1);
    expect(results[0].error).toBeInstanceOf(SyntaxError);
  });

  it('reports a server error once', () => {
    const { execution, results } = settled(new PreparedStatement('SELECT 1 WHERE $1'), [true]);
    execution.submit(fakeConnection());
    const error = new Error('boom');
    execution.handleError(error);
    execution.handleReadyForQuery();
    expect(results).toEqual([{ error }]);
  });

  it('takes strings, finite numbers, booleans, bigints, nulls and lists of them; anything else is left to the driver', () => {
    const statement = new PreparedStatement('SELECT $1, $2, $3, $4, $5, $6, $7');
    const conn = fakeConnection();
    statement
      .execution(['a', 1.5, true, 10n, null, undefined, ['open', 'b "c" \\d', null, [1, true]]])
      ?.submit(conn);
    expect(conn.sent).toContain(
      `bind ${statement.name} ${JSON.stringify(['a', '1.5', 'true', '10', null, null, '{"open","b \\"c\\" \\\\d",NULL,{"1","true"}}'])}`,
    );
    for (const other of [
      [new Date(0)],
      [{ a: 1 }],
      [Buffer.from('x')],
      [Number.NaN],
      [['a', new Date(0)]],
      [[{ a: 1 }]],
      [[Number.POSITIVE_INFINITY]],
    ]) {
      expect(statement.execution(other)).toBeUndefined();
    }
  });

  it('names a statement by its text', () => {
    expect(new PreparedStatement('SELECT 1').name).toBe(new PreparedStatement('SELECT 1').name);
    expect(new PreparedStatement('SELECT 1').name).not.toBe(new PreparedStatement('SELECT 2').name);
    expect(new PreparedStatement('SELECT 1').name).toMatch(/^interlock_[0-9a-f]{24}$/);
  });
});
