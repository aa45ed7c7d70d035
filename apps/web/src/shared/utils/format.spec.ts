import { relativeTime } from './format';

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
