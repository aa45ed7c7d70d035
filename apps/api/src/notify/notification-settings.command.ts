import type { NotificationPreferences } from '@interlock/domain';
import type { MemberCall } from '../auth/caller';

/**
 * Change the acting member's own notification preferences and time zone (SPEC §8c): the input of
 * `NotificationSettingsService.updatePreferences`; what is left out stays (the validated
 * `UpdateNotificationPreferencesDto` is such a `changes`).
 */
export interface UpdateNotificationPreferencesCommand extends MemberCall {
  changes: { timeZone?: string; preferences?: NotificationPreferences };
}

/**
 * Change the organisation's notification defaults and whether emails carry action links (SPEC
 * §8c): the input of `NotificationSettingsService.updateSettings` (the validated
 * `UpdateNotificationSettingsDto` is such a `changes`).
 */
export interface UpdateNotificationSettingsCommand extends MemberCall {
  changes: { defaults?: NotificationPreferences; tokenActions?: boolean };
}
