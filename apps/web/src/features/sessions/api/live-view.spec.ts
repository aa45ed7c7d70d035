import type { SessionResponse } from '@interlock/api-client';
import { mergeMessages, messageTotal, type LiveMessage } from './live-view';

const m = (seq: number): LiveMessage => ({
  seq,
  role: 'agent',
  content: `m${seq}`,
  createdAt: '2026-11-22T12:00:00.000Z',
});

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

describe('messageTotal', () => {
  const session = (messageCount: number) => ({ messageCount }) as SessionResponse;

  it('counts messages that arrived after the session record was sent (it said 0)', () => {
    expect(messageTotal({ session: session(0), messages: [m(1), m(2), m(3)] })).toBe(3);
  });

  it('keeps the record’s count when fewer messages have arrived yet', () => {
    expect(messageTotal({ session: session(106), messages: [m(1)] })).toBe(106);
    expect(messageTotal({ session: null, messages: [] })).toBe(0);
  });

  it('follows the last sequence number', () => {
    expect(messageTotal({ session: session(2), messages: [m(5), m(6)] })).toBe(6);
  });
});
