import { parseEditedArgs } from './edited-args';

describe('parseEditedArgs', () => {
  it('accepts a JSON object', () => {
    expect(parseEditedArgs('{"amount": 40, "to": {"iban": "DE00"}}')).toEqual({
      ok: true,
      value: { amount: 40, to: { iban: 'DE00' } },
    });
  });

  it.each([
    ['', 'Enter the edited arguments'],
    ['{"amount": 40', 'Not valid JSON'],
    ['[1, 2]', 'must be a JSON object ({…}), not an array.'],
    ['null', 'not null.'],
    ['42', 'not a number.'],
    ['"text"', 'not a string.'],
    ['{"note": "a\\u0000b"}', 'may not contain the NUL character'],
    ['{"a\\u0000": 1}', 'may not contain the NUL character'],
  ])('refuses %j', (text, message) => {
    const result = parseEditedArgs(text);
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.error).toContain(message);
  });

  it('keeps an escaped backslash before u0000 (that is text, not NUL)', () => {
    expect(parseEditedArgs('{"path": "C:\\\\u0000"}')).toEqual({
      ok: true,
      value: { path: 'C:\\u0000' },
    });
  });
});
