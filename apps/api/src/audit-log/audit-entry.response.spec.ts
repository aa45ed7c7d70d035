import { cursorInstantOf, isoMillis } from './audit-entry.response';

describe('isoMillis', () => {
  it('writes a UTC timestamp as toISOString does, milliseconds truncated', () => {
    for (const [utc, iso] of [
      ['2026-11-21 12:00:00', '2026-11-21T12:00:00.000Z'],
      ['2026-11-21 12:00:00.5', '2026-11-21T12:00:00.500Z'],
      ['2026-11-21 12:00:00.12', '2026-11-21T12:00:00.120Z'],
      ['2026-11-21 12:00:00.123999', '2026-11-21T12:00:00.123Z'],
      ['0999-01-01 00:00:00.000001', '0999-01-01T00:00:00.000Z'],
    ]) {
      expect(isoMillis(utc)).toBe(iso);
      expect(new Date(`${utc.replace(' ', 'T')}Z`).toISOString()).toBe(iso);
    }
  });

  it('refuses what is not a UTC timestamp of four-digit years', () => {
    for (const text of [
      '2026-11-21 12:00:00+00',
      '12026-11-21 12:00:00',
      '2026-11-21T12:00:00',
      '21/11/2026 12:00:00',
      '2026-11-21 12:00:00 BC',
    ]) {
      expect(() => isoMillis(text)).toThrow('not a UTC timestamp');
    }
  });
});

describe('cursorInstantOf', () => {
  const id = '0b7f4c1e-3a52-4d8e-9f61-2c9d0e5a7b13';
  const rendered = (createdAt: string, rest = ',"action":"api_key.created"') =>
    `{"id":"${id}","createdAt":"${createdAt}"${rest}}`;

  it("reads the renderer's createdAt, as a parse of the entry does", () => {
    for (const text of [
      rendered('2026-11-21T12:00:00.123Z'),
      rendered('0999-01-01T00:00:00.000Z', ',"metadata":{"createdAt":"2000-01-01T00:00:00.000Z"}'),
      rendered('2026-11-21T12:00:00.123Z', ',"summary":"\\",\\"createdAt\\":\\"1999"'),
    ]) {
      const parsed = (JSON.parse(text) as { createdAt: string }).createdAt;
      expect(cursorInstantOf(text)).toBe(parsed);
    }
  });

  it('reads the instant without parsing the rest of the text', () => {
    // Not JSON past the instant: only a read that stops there answers.
    const cut = `{"id":"${id}","createdAt":"2026-11-21T12:00:00.123Z","metadata":{`;
    expect(() => JSON.parse(cut)).toThrow(SyntaxError);
    expect(cursorInstantOf(cut)).toBe('2026-11-21T12:00:00.123Z');
  });

  it('parses a text whose createdAt is not its second member, or is nested', () => {
    const nestedFirst = `{"id":"${id}","metadata":{"createdAt":"2000-01-01T00:00:00.000Z"},"createdAt":"2026-11-21T12:00:00.123Z"}`;
    expect(cursorInstantOf(nestedFirst)).toBe('2026-11-21T12:00:00.123Z');
    // An id holding the key's text escaped: the key found is the object's own, after the id.
    const trickyId = `{"id":"a\\",\\"createdAt\\":\\"2000-01-01T00:00:00.000Z","createdAt":"2026-11-21T12:00:00.123Z"}`;
    expect(cursorInstantOf(trickyId)).toBe('2026-11-21T12:00:00.123Z');
    const reordered = `{"createdAt":"2026-11-21T12:00:00.123Z","id":"${id}"}`;
    expect(cursorInstantOf(reordered)).toBe('2026-11-21T12:00:00.123Z');
  });

  it('refuses a createdAt that is not an instant of four-digit years, read or parsed', () => {
    for (const text of [
      rendered('2026-11-21T12:00:00.123'),
      rendered('2026-11-21T12:00:00Z'),
      rendered('12026-11-21T12:00:00.123Z'),
      `{"id":"${id}","createdAt":null}`,
      `{"id":"${id}"}`,
    ]) {
      expect(() => cursorInstantOf(text)).toThrow("an audit entry's createdAt is not an instant");
    }
  });
});
