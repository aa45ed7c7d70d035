import { EVENT_SUBJECTS, EVENT_TYPES, isEventType, STREAM_EVENT_TYPES } from './events';

describe('the event catalogue', () => {
  it('names every event once, each with its subject', () => {
    expect(new Set(EVENT_TYPES).size).toBe(EVENT_TYPES.length);
    expect(Object.keys(EVENT_SUBJECTS).sort()).toEqual([...EVENT_TYPES].sort());
    for (const type of EVENT_TYPES) expect(type.startsWith(`${EVENT_SUBJECTS[type]}.`)).toBe(true);
  });

  it('streams every event but the webhook ping', () => {
    expect(STREAM_EVENT_TYPES).toEqual(EVENT_TYPES.filter((t) => t !== 'webhook.test'));
  });

  it('recognises its types only', () => {
    expect(isEventType('interrupt.answered')).toBe(true);
    expect(isEventType('interrupt.deleted')).toBe(false);
    expect(isEventType(42)).toBe(false);
  });
});
