import { isoMillis } from './audit-entry.response';

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
