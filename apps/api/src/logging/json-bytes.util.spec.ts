import { JsonBytes } from './json-bytes.util';

/** What `write` put into a fresh buffer, as text. */
function written(write: (out: JsonBytes) => void): string {
  const out = new JsonBytes();
  write(out);
  return out.view().toString('utf8');
}

describe('JSON written straight into bytes', () => {
  const strings = [
    '',
    'plain text',
    'application/json; charset=utf-8',
    'a "quoted" word',
    'back\\slash',
    'tab\there, newline\n, NUL\u0000, escape\u001b, DEL\u007f',
    'Ünïcödé, emoji 😀, line separator \u2028',
    'lone surrogates \ud800 and \udfff',
    '</script>',
    '~ and the space before it',
  ];

  it('writes every string as the UTF-8 of what JSON.stringify writes', () => {
    for (const text of strings)
      expect(written((out) => out.string(text))).toBe(JSON.stringify(text));
  });

  it('writes numbers, lists and other values as JSON.stringify does, and nothing for undefined', () => {
    const values = [0, 7, 10, 15, 200, 1234567890, 2 ** 53 - 1, 2 ** 53, -0, -1.5, 0.25];
    for (const value of [...values, Number.NaN, Infinity, ['a', 'b "c"'], null, true, { a: 1 }])
      expect(written((out) => expect(out.value(value)).toBe(true))).toBe(JSON.stringify(value));
    expect(written((out) => expect(out.value(undefined)).toBe(false))).toBe('');
  });

  it("writes a record's members as JSON.stringify writes the object, a name needing escapes too", () => {
    const record: Record<string, unknown> = {
      skipped: undefined,
      host: 'localhost:3000',
      'content-length': 15,
      'x-forwarded-for': ['10.0.0.1', '10.0.0.2'],
      'with "quote"': 'v\\',
      'user-agent': strings[6],
      last: undefined,
    };
    const none = () => undefined;
    expect(`{${written((out) => out.members(record, none, false))}}`).toBe(JSON.stringify(record));
    expect(written((out) => out.members(record, none, true))).toBe(
      `,${JSON.stringify(record).slice(1, -1)}`,
    );
    expect(written((out) => out.members({}, none, true))).toBe('');
    expect(written((out) => out.members({ gone: undefined }, none, false))).toBe('');
  });

  it('writes what the censor gives instead of a value, as a string', () => {
    const censor = (name: string) => (name === 'cookie' ? '[redacted]' : undefined);
    expect(
      written((out) => out.members({ cookie: 'session=secret', host: 'h' }, censor, true)),
    ).toBe(',"cookie":"[redacted]","host":"h"');
  });

  it('grows past its first buffer keeping what it holds, and starts again from the first byte once cleared', () => {
    const out = new JsonBytes();
    const piece = `${'é'.repeat(1000)}"`;
    let expected = '';
    for (let i = 0; i < 100; i++) {
      out.string(piece);
      out.ascii(',');
      expected += `${JSON.stringify(piece)},`;
    }
    expect(out.length).toBeGreaterThan(64 * 1024);
    expect(out.view().toString('utf8')).toBe(expected);
    out.clear();
    out.string('next');
    expect(out.view().toString('utf8')).toBe('"next"');
  });
});
