import { AgentHoursTotalsEntity } from '../allowances/agent-hours-totals.entity';
import { SessionStorageTotalEntity } from '../allowances/session-storage-total.entity';
import { UsageMonthEntity } from '../allowances/usage-month.entity';
import { ApiKeyEntity } from '../api-keys/api-key.entity';
import { SignInSessionEntity } from '../auth/sign-in-session.entity';
import { IdempotencyKeyEntity } from '../idempotency/idempotency-key.entity';
import { InterruptApprovalEntity } from '../interrupts/interrupt-approval.entity';
import { InterruptDecisionEntity } from '../interrupts/interrupt-decision.entity';
import { InterruptResumeEntity } from '../interrupts/interrupt-resume.entity';
import { InterruptEntity } from '../interrupts/interrupt.entity';
import { InvitationEntity } from '../invitations/invitation.entity';
import { MembershipEntity } from '../members/membership.entity';
import { OrganisationEntity } from '../organisation/organisation.entity';
import { RoleEntity } from '../roles/role.entity';
import { SessionMessageEntity } from '../sessions/session-message.entity';
import { SessionEntity } from '../sessions/session.entity';
import { TeamMemberEntity } from '../teams/team-member.entity';
import { TeamEntity } from '../teams/team.entity';
import { ClassificationRuleEntity } from '../classification/classification-rule.entity';
import { ClassificationMatchEntity } from '../classification/classification-match.entity';
import { ClassificationSuggestionEntity } from '../classification/classification-suggestion.entity';
import { ClassificationClassifierEntity } from '../classification/classification-classifier.entity';
import { ClassificationVersionEntity } from '../classification/classification-version.entity';
import { ScheduledJobEntity } from '../jobs/scheduled-job.entity';
import { AccountTokenEntity } from '../users/account-token.entity';
import { UserRecoveryCodeEntity, UserTwoFactorEntity } from '../users/two-factor.entity';
import { SsoConnectionEntity, SsoDomainEntity, SsoIdentityEntity } from '../sso/sso.entity';
import { WebhookDeliveryAttemptEntity } from '../webhooks/webhook-delivery-attempt.entity';
import { WebhookDeliveryEntity } from '../webhooks/webhook-delivery.entity';
import { WebhookEventEntity } from '../webhooks/webhook-event.entity';
import { WebhookEntity } from '../webhooks/webhook.entity';
import { NotificationEntity } from '../notify/notification.entity';
import {
  NotificationActionLinkUseEntity,
  NotificationMemberSettingsEntity,
  NotificationSettingsEntity,
} from '../notify/notification-settings.entity';
import { SlackConnectionEntity, SlackMessageEntity } from '../notify/slack/slack.entity';
import { UserEntity } from '../users/user.entity';

/** Every entity of the one data source. */
export const ENTITIES = [
  OrganisationEntity,
  RoleEntity,
  UserEntity,
  MembershipEntity,
  SignInSessionEntity,
  ApiKeyEntity,
  TeamEntity,
  ClassificationRuleEntity,
  ClassificationMatchEntity,
  ClassificationSuggestionEntity,
  ClassificationClassifierEntity,
  ClassificationVersionEntity,
  TeamMemberEntity,
  InvitationEntity,
  SessionEntity,
  SessionMessageEntity,
  InterruptEntity,
  InterruptDecisionEntity,
  InterruptApprovalEntity,
  InterruptResumeEntity,
  UsageMonthEntity,
  AgentHoursTotalsEntity,
  SessionStorageTotalEntity,
  IdempotencyKeyEntity,
  WebhookEntity,
  WebhookEventEntity,
  WebhookDeliveryEntity,
  WebhookDeliveryAttemptEntity,
  NotificationEntity,
  NotificationSettingsEntity,
  NotificationActionLinkUseEntity,
  NotificationMemberSettingsEntity,
  SlackConnectionEntity,
  SlackMessageEntity,
  ScheduledJobEntity,
  AccountTokenEntity,
  UserTwoFactorEntity,
  SsoConnectionEntity,
  SsoDomainEntity,
  SsoIdentityEntity,
  UserRecoveryCodeEntity,
];
