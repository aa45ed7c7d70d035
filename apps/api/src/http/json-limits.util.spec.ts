import { jsonSizeProblem, MAX_JSON_FIELDS_PER_OBJECT, MAX_JSON_VALUES } from './json-limits.util';

const scan = (value: unknown) => jsonSizeProblem(Buffer.from(JSON.stringify(value)));

function objectWith(fields: number, prefix = 'f'): Record<string, number> {
  const object: Record<string, number> = {};
  for (let i = 0; i < fields; i++) object[`${prefix}${i}`] = i;
  return object;
}

describe('jsonSizeProblem', () => {
  it('accepts ordinary bodies, up to the limits', () => {
    expect(
      scan({
        title: 'Deploy',
        actionRequests: [{ name: 'a', args: { n: 1, list: [1, [2, 3], {}] } }],
      }),
    ).toBeNull();
    expect(scan(objectWith(MAX_JSON_FIELDS_PER_OBJECT))).toBeNull();
    expect(scan({ a: [], b: {}, c: '[{"x":1,"y":2}]', d: 'a:b,c' })).toBeNull();
    expect(scan('plain string')).toBeNull();
  });

  it('names the first field over the per-object limit, at any depth', () => {
    expect(scan(objectWith(60_000))).toBe(
      `body: has more than ${MAX_JSON_FIELDS_PER_OBJECT} fields (the first over the limit is body.f${MAX_JSON_FIELDS_PER_OBJECT})`,
    );
    expect(
      scan({
        title: 't',
        actionRequests: [{ name: 'a' }, { name: 'b', args: objectWith(1_001, 'k') }],
      }),
    ).toBe(
      `body.actionRequests.1.args: has more than ${MAX_JSON_FIELDS_PER_OBJECT} fields (the first over the limit is body.actionRequests.1.args.k1000)`,
    );
  });

  it('counts fields and array items of the whole body', () => {
    // "metadata" is 1; each object is 1 item + 999 fields: the 20,001st value is in object 19.
    const many = Array.from({ length: 25 }, () => objectWith(999));
    expect(scan({ metadata: many })).toBe(
      `body: has more than ${MAX_JSON_VALUES} fields and array items in all (the first over the limit is body.metadata.19.f998)`,
    );
    expect(scan({ xs: Array.from({ length: MAX_JSON_VALUES + 5 }, () => 0) })).toBe(
      `body: has more than ${MAX_JSON_VALUES} fields and array items in all (the first over the limit is body.xs.${MAX_JSON_VALUES - 1})`,
    );
    expect(scan({ xs: Array.from({ length: MAX_JSON_VALUES - 1 }, () => 0) })).toBeNull();
  });

  it('is not fooled by structure inside strings, escaped quotes or multi-byte text', () => {
    const text = '{"a":1,"b":[2],"c\\"":3}'.repeat(2_000);
    expect(scan({ q: text, 'ключ ":,{[': 'значение ":,{[' })).toBeNull();
    const escaped: Record<string, number> = {};
    for (let i = 0; i <= MAX_JSON_FIELDS_PER_OBJECT; i++) escaped[`"é\\${i}`] = i;
    expect(scan(escaped)).toBe(
      `body: has more than ${MAX_JSON_FIELDS_PER_OBJECT} fields (the first over the limit is body."é\\${MAX_JSON_FIELDS_PER_OBJECT})`,
    );
  });

  it('leaves malformed JSON to the parser', () => {
    expect(jsonSizeProblem(Buffer.from('}}]]{"a":'))).toBeNull();
    expect(jsonSizeProblem(Buffer.from('{"a":"unterminated'))).toBeNull();
  });
});
