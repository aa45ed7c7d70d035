import { deadlineOutcome } from './deadline-warning.job';

describe('deadlineOutcome (what a deadline-coming warning says the deadline will do)', () => {
  const row = (
    on_timeout: 'reject' | 'approve' | 'escalate' | null,
    timeout_escalated = false,
    approve_allowed = true,
  ) => ({ on_timeout, timeout_escalated, approve_allowed });

  it('as the expiry will act: escalate once, approve only where the organisation still allows it, else reject', () => {
    expect(deadlineOutcome(row('reject'))).toBe('reject');
    expect(deadlineOutcome(row(null))).toBe('reject');
    expect(deadlineOutcome(row('approve'))).toBe('approve');
    expect(deadlineOutcome(row('approve', false, false))).toBe('reject');
    expect(deadlineOutcome(row('escalate'))).toBe('escalate');
    // An escalate deadline that extended itself once rejects at the second deadline.
    expect(deadlineOutcome(row('escalate', true))).toBe('reject');
  });
});
