import { mergeMessages, type LiveMessage } from './live-view';

const m = (seq: number): LiveMessage => ({ seq, role: 'agent', content: `m${seq}`, createdAt: '2026-11-22T12:00:00.000Z' });

describe('mergeMessages', () => {
  it('appends new messages in order', () => {
    expect(mergeMessages([m(1), m(2)], [m(4), m(3)]).map((x) => x.seq)).toEqual([1, 2, 3, 4]);
  });

  it('drops what was already received (a reconnect that replays)', () => {
    const current = [m(1), m(2), m(3)];
    expect(mergeMessages(current, [m(2), m(3)])).toBe(current);
    expect(mergeMessages(current, [m(3), m(4)]).map((x) => x.seq)).toEqual([1, 2, 3, 4]);
  });
});
