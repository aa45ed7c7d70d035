import { parseLastEventId, sseEvent } from './sse-event.util';

describe('SSE framing', () => {
  it('frames an event with its id, and keeps newlines in data inside the JSON', () => {
    expect(sseEvent('message', { content: 'a\nb' }, 7)).toBe(
      'id: 7\nevent: message\ndata: {"content":"a\\nb"}\n\n',
    );
    expect(sseEvent('session', { status: 'ended' })).toBe(
      'event: session\ndata: {"status":"ended"}\n\n',
    );
  });

  it('reads Last-Event-ID', () => {
    expect(parseLastEventId(undefined)).toBeUndefined();
    expect(parseLastEventId('')).toBeUndefined();
    expect(parseLastEventId(' 12 ')).toBe(12);
    expect(parseLastEventId('-1')).toBe('invalid');
    expect(parseLastEventId('abc')).toBe('invalid');
    expect(parseLastEventId('99999999999')).toBe('invalid');
  });
});
