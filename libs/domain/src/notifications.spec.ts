import {
  BUILT_IN_NOTIFICATION_DEFAULTS,
  effectiveNotificationPreferences,
  notificationPreferencesProblem,
} from './notifications';

describe('notification preferences', () => {
  it('apply the member’s choice, else the organisation’s, else the built-in default', () => {
    const effective = effectiveNotificationPreferences(
      { 'interrupt.opened': { email: 'daily' } },
      {
        'interrupt.opened': { email: 'off', browser: 'immediately' },
        'interrupt.decided': { email: 'hourly' },
      },
    );
    expect(effective['interrupt.opened']).toEqual({ email: 'daily', browser: 'immediately' });
    expect(effective['interrupt.decided']).toEqual({
      email: 'hourly',
      browser: BUILT_IN_NOTIFICATION_DEFAULTS['interrupt.decided'].browser,
    });
    expect(effective['interrupt.assigned']).toEqual(
      BUILT_IN_NOTIFICATION_DEFAULTS['interrupt.assigned'],
    );
  });

  it('refuse unknown kinds and channels, and modes a channel does not offer; null is allowed', () => {
    expect(
      notificationPreferencesProblem(
        { 'interrupt.opened': { email: null, browser: 'off' } },
        'preferences',
      ),
    ).toBeNull();
    expect(notificationPreferencesProblem([], 'preferences')).toBe(
      'preferences must be an object.',
    );
    expect(notificationPreferencesProblem({ nope: {} }, 'p')).toBe(
      'p may only name the kinds interrupt.opened, interrupt.assigned, interrupt.escalated, interrupt.decided, interrupt.reminder, interrupt.closed, interrupt.approval_needed, interrupt.deadline_approaching.',
    );
    expect(notificationPreferencesProblem({ 'interrupt.opened': 'off' }, 'p')).toBe(
      'p must map interrupt.opened to an object of channels.',
    );
    expect(notificationPreferencesProblem({ 'interrupt.opened': { sms: 'off' } }, 'p')).toBe(
      'p may only name the channels email, browser (interrupt.opened).',
    );
    expect(notificationPreferencesProblem({ 'interrupt.opened': { browser: 'daily' } }, 'p')).toBe(
      'p must give interrupt.opened.browser one of immediately, off, or null for the default.',
    );
  });
});
