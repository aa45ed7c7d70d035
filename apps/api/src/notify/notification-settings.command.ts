import type { MemberActor, NotificationPreferences } from '@interlock/domain';

/**
 * Change the acting member's own notification preferences and time zone (SPEC §8c): the input of
 * `NotificationSettingsService.updatePreferences`; what is left out stays (the validated
 * `UpdateNotificationPreferencesDto` is such a `changes`).
 */
export interface UpdateNotificationPreferencesCommand {
  organisationId: string;
  actor: MemberActor;
  changes: { timeZone?: string; preferences?: NotificationPreferences };
  ip: string | null;
}

/**
 * Change the organisation's notification defaults and whether emails carry action links (SPEC
 * §8c): the input of `NotificationSettingsService.updateSettings` (the validated
 * `UpdateNotificationSettingsDto` is such a `changes`).
 */
export interface UpdateNotificationSettingsCommand {
  organisationId: string;
  actor: MemberActor;
  changes: { defaults?: NotificationPreferences; tokenActions?: boolean };
  ip: string | null;
}
