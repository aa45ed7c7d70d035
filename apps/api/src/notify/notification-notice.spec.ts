import { actionDigest } from '../interrupts/action-digest.util';
import type { InterruptResponse } from '../interrupts/dto/interrupt.response';
import { toNotice } from './notification-outbox';

const ID = '6f1d2c3b-4a59-4e68-8f7a-9b0c1d2e3f40';

/** An open interrupt as the API renders it, its actions as given (with or without their digest). */
function interrupt(actionRequests: InterruptResponse['actionRequests']): InterruptResponse {
  // What a notice reads of it (the rest of the record does not reach the notice).
  return {
    id: ID,
    status: 'open',
    title: 'Refund order 1042',
    description: null,
    createdAt: '2026-11-29T09:00:00.000Z',
    actionRequests,
    decisions: [],
    assignee: null,
    escalationLevel: 0,
    escalationReason: null,
  } as unknown as InterruptResponse;
}

/** An action as the record renders it; `actionDigest` only when given. */
const action = (name: string, args: Record<string, unknown>, actionDigest?: string) => ({
  name,
  args,
  description: null,
  allowedDecisions: ['approve' as const, 'reject' as const],
  responseSchema: null,
  ...(actionDigest === undefined ? {} : { actionDigest }),
});

describe('toNotice', () => {
  const args = { orderId: 1042, amount: { value: 12.5, currency: 'EUR' } };

  it('takes the digest each action of the record carries, not worked out again', () => {
    // The record's digest is the one worked out (interrupt-record.ts); a marker here shows which is used.
    const carried = 'c'.repeat(64);
    const notice = toNotice(interrupt([action('refund', args, carried)]));
    expect(notice.actionRequests.map((a) => a.digest)).toEqual([carried]);
  });

  it('works the digest out for a record rendered before actions carried one', () => {
    const notice = toNotice(interrupt([action('refund', args), action('notify', {})]));
    expect(notice.actionRequests.map((a) => a.digest)).toEqual([
      actionDigest(ID, 'refund', args),
      actionDigest(ID, 'notify', {}),
    ]);
  });
});
