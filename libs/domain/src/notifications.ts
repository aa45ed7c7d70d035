/**
 * What notifies people (issue 30, SPEC §8h): the kinds of notification a member can receive, the
 * channels, and how often each is sent. Preferences are per member, per kind and per channel,
 * falling back to the organisation's default and then to the built-in default below.
 */
export const NOTIFICATION_KINDS = [
  'interrupt.opened',
  'interrupt.assigned',
  'interrupt.escalated',
  'interrupt.decided',
  'interrupt.reminder',
  'interrupt.closed',
  'interrupt.approval_needed',
  'interrupt.deadline_approaching',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const NOTIFICATION_CHANNELS = ['email', 'browser'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/** `hourly` and `daily` gather notifications into one digest per organisation (daily: in the member's time zone). */
export const NOTIFICATION_MODES = ['immediately', 'hourly', 'daily', 'off'] as const;
export type NotificationMode = (typeof NOTIFICATION_MODES)[number];

/** The modes each channel offers: a browser notification is shown when it happens, or not at all. */
export const CHANNEL_MODES: Readonly<Record<NotificationChannel, readonly NotificationMode[]>> = {
  email: NOTIFICATION_MODES,
  browser: ['immediately', 'off'],
};

export type NotificationPreferences = Partial<
  Record<NotificationKind, Partial<Record<NotificationChannel, NotificationMode>>>
>;

/** Where neither the member nor the organisation chose: what most reviewers expect. */
export const BUILT_IN_NOTIFICATION_DEFAULTS: Readonly<
  Record<NotificationKind, Readonly<Record<NotificationChannel, NotificationMode>>>
> = {
  'interrupt.opened': { email: 'immediately', browser: 'off' },
  'interrupt.assigned': { email: 'immediately', browser: 'immediately' },
  'interrupt.escalated': { email: 'immediately', browser: 'immediately' },
  'interrupt.decided': { email: 'off', browser: 'off' },
  'interrupt.reminder': { email: 'immediately', browser: 'off' },
  'interrupt.closed': { email: 'immediately', browser: 'off' },
  'interrupt.approval_needed': { email: 'immediately', browser: 'off' },
  'interrupt.deadline_approaching': { email: 'immediately', browser: 'off' },
};

/** The hour of the member's day at which the daily digest leaves. */
export const DAILY_DIGEST_HOUR = 9;

/** Every kind and channel filled in: the member's choice, else the organisation's, else the built-in one. */
export function effectiveNotificationPreferences(
  member: NotificationPreferences,
  organisation: NotificationPreferences,
): Record<NotificationKind, Record<NotificationChannel, NotificationMode>> {
  const out = {} as Record<NotificationKind, Record<NotificationChannel, NotificationMode>>;
  for (const kind of NOTIFICATION_KINDS) {
    out[kind] = {} as Record<NotificationChannel, NotificationMode>;
    for (const channel of NOTIFICATION_CHANNELS) {
      out[kind][channel] =
        member[kind]?.[channel] ??
        organisation[kind]?.[channel] ??
        BUILT_IN_NOTIFICATION_DEFAULTS[kind][channel];
    }
  }
  return out;
}

/**
 * Checks a preferences object as a client sent it: known kinds, known channels, a mode that
 * channel offers. Returns the first problem as a sentence, or null.
 */
export function notificationPreferencesProblem(value: unknown, field: string): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return `${field} must be an object.`;
  for (const [kind, channels] of Object.entries(value)) {
    if (!(NOTIFICATION_KINDS as readonly string[]).includes(kind)) {
      return `${field} may only name the kinds ${NOTIFICATION_KINDS.join(', ')}.`;
    }
    if (typeof channels !== 'object' || channels === null || Array.isArray(channels))
      return `${field} must map ${kind} to an object of channels.`;
    for (const [channel, mode] of Object.entries(channels)) {
      if (!(NOTIFICATION_CHANNELS as readonly string[]).includes(channel)) {
        return `${field} may only name the channels ${NOTIFICATION_CHANNELS.join(', ')} (${kind}).`;
      }
      const allowed = CHANNEL_MODES[channel as NotificationChannel];
      if (mode !== null && !(allowed as readonly unknown[]).includes(mode)) {
        return `${field} must give ${kind}.${channel} one of ${allowed.join(', ')}, or null for the default.`;
      }
    }
  }
  return null;
}
