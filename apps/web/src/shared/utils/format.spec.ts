import { bytes, relativeTime } from './format';

describe('relativeTime', () => {
  const now = Date.parse('2026-11-22T12:00:00.000Z');
  it.each([
    ['2026-11-22T11:59:50.000Z', 'just now'],
    ['2026-11-22T11:55:00.000Z', '5 minutes ago'],
    ['2026-11-22T09:00:00.000Z', '3 hours ago'],
    ['2026-11-21T12:00:00.000Z', 'yesterday'],
    ['2026-12-22T12:00:00.000Z', 'next month'],
    ['2026-11-29T12:00:00.000Z', 'next week'],
  ])('%s → %s', (iso, expected) => {
    expect(relativeTime(iso, now)).toBe(expected);
  });
});

describe('bytes', () => {
  it('names the quota in binary units, one decimal at most', () => {
    expect(bytes(0)).toBe('0 bytes');
    expect(bytes(1)).toBe('1 byte');
    expect(bytes(1023)).toBe('1,023 bytes');
    expect(bytes(1536)).toBe('1.5 KiB');
    expect(bytes(100 * 1024 * 1024)).toBe('100 MiB');
    expect(bytes(10 * 1024 ** 3)).toBe('10 GiB');
    expect(bytes(1024 ** 3 - 1)).toBe('1,024 MiB');
  });
});
