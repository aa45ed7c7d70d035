import { parseEditedArgs } from './edited-args';

describe('parseEditedArgs', () => {
  it('accepts a JSON object', () => {
    expect(parseEditedArgs('{"amount": 40, "to": {"iban": "DE00"}}')).toEqual({ ok: true, value: { amount: 40, to: { iban: 'DE00' } } });
  });

  it.each([
    ['', 'Enter the edited arguments'],
    ['{"amount": 40', 'Not valid JSON'],
    ['[1, 2]', 'must be a JSON object ({…}), not an array.'],
    ['null', 'not null.'],
    ['42', 'not a number.'],
    ['"text"', 'not a string.'],
  ])('refuses %j', (text, message) => {
    const result = parseEditedArgs(text);
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.error).toContain(message);
  });
});
