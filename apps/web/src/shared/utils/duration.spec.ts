import { describeDuration, splitDuration, timeLeft, toSeconds } from './duration';

describe('durations', () => {
  it.each([
    [60, { amount: 1, unit: 'minutes' }],
    [5_400, { amount: 90, unit: 'minutes' }],
    [7_200, { amount: 2, unit: 'hours' }],
    [2_592_000, { amount: 30, unit: 'days' }],
    [90, { amount: 1.5, unit: 'minutes' }],
  ])('splits %d seconds into %j', (seconds, expected) => {
    expect(splitDuration(seconds)).toEqual(expected);
    expect(toSeconds(expected.amount, expected.unit as 'minutes')).toBe(seconds);
  });

  it.each([
    [0, '0 seconds'],
    [1, '1 second'],
    [5_400, '1 hour 30 minutes'],
    [2_592_000, '30 days'],
    [90_061, '1 day 1 hour 1 minute 1 second'],
  ])('describes %d seconds as %s', (seconds, expected) => {
    expect(describeDuration(seconds)).toBe(expected);
  });

  it.each([
    ['2026-11-22T12:04:05.000Z', '4m 05s'],
    ['2026-11-22T14:10:59.000Z', '2h 10m'],
    ['2026-11-25T16:00:00.000Z', '3d 4h'],
    ['2026-11-22T12:00:00.900Z', 'overdue'],
    ['2026-11-22T11:00:00.000Z', 'overdue'],
  ])('counts down to %s: %s', (deadline, expected) => {
    expect(timeLeft(deadline, Date.parse('2026-11-22T12:00:00.000Z'))).toBe(expected);
  });
});
