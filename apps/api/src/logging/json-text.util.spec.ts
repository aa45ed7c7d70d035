import { jsonFields, jsonMembers, jsonString, jsonValue } from './json-text.util';

describe('JSON text written by hand', () => {
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
  ];

  it('writes every string as JSON.stringify does', () => {
    for (const text of strings) expect(jsonString(text)).toBe(JSON.stringify(text));
  });

  it('writes numbers, lists and other values as JSON.stringify does', () => {
    for (const value of [0, 15, -1.5, Number.NaN, ['a', 'b "c"'], null, true, { a: 1 }])
      expect(jsonValue(value)).toBe(JSON.stringify(value));
    expect(jsonValue(undefined)).toBeUndefined();
  });

  it("writes a record's members as JSON.stringify writes the object, each after a comma", () => {
    const record: Record<string, unknown> = {
      host: 'localhost:3000',
      'content-length': 15,
      'x-forwarded-for': ['10.0.0.1', '10.0.0.2'],
      'with "quote"': 'v\\',
      skipped: undefined,
      'user-agent': strings[5],
    };
    const members = jsonMembers(record, () => undefined);
    expect(members.startsWith(',')).toBe(true);
    expect(`{${members.slice(1)}}`).toBe(JSON.stringify(record));
    expect(jsonMembers({}, () => undefined)).toBe('');
  });

  it("writes a record's fields as the text between JSON.stringify's braces, a name needing escapes first", () => {
    const record: Record<string, unknown> = {
      skipped: undefined,
      'with "quote"': 'v\\',
      host: 'localhost:3000',
      'content-length': 15,
    };
    expect(`{${jsonFields(record, () => undefined)}}`).toBe(JSON.stringify(record));
    expect(jsonFields({ only: 'one' }, () => undefined)).toBe('"only":"one"');
    expect(jsonFields({ gone: undefined }, () => undefined)).toBe('');
  });

  it('writes what the censor gives instead of a value, as a string', () => {
    const members = jsonMembers({ cookie: 'session=secret', host: 'h' }, (name) =>
      name === 'cookie' ? '[redacted]' : undefined,
    );
    expect(members).toBe(',"cookie":"[redacted]","host":"h"');
  });
});
