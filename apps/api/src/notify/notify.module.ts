import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Logger } from 'pino';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/app-config';
import { ORGANISATION_EVENTS_CHANNEL } from '../events/organisation-events-channel';
import { JobRunner } from '../jobs/job-runner';
import { outboxWorkerProvider } from '../jobs/outbox-worker.provider';
import { InterruptsRepository } from '../interrupts/interrupts.repository';
import { LOGGER } from '../logging/logger.module';
import { Mailer } from '../mail/mailer';
import { NotificationBus } from '../notifications/notification-bus';
import { OrganisationModule } from '../organisation/organisation.module';
import { WebhookOutbox } from '../webhooks/webhook-outbox';
import { WebhookSecretBox } from '../webhooks/webhook-secret.util';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { InterruptsModule } from '../interrupts/interrupts.module';
import { ActionLinkSigner } from './action-link-token.util';
import { ActionLinksController } from './action-links.controller';
import { ActionLinksService } from './action-links.service';
import { DeadlineWarningJob } from './deadline-warning.job';
import { InvitationEmailProof } from './invitation-email-proof.util';
import { MessageRenderer } from './message-renderer';
import { NotificationDeliveryWorker } from './notification-delivery.worker';
import { NotificationOutbox } from './notification-outbox';
import { NotificationSettingsService } from './notification-settings.service';
import { NotificationsController } from './notifications.controller';
import { NotificationsRepository } from './notifications.repository';
import { SlackApi } from './slack/slack-api';
import { SlackDeliveryWorker } from './slack/slack-delivery.worker';
import { SlackOutbox } from './slack/slack-outbox';
import { SlackInteractionsController, SlackSettingsController } from './slack/slack.controller';
import { SLACK_SECRET_BOX, SlackService } from './slack/slack.service';
import { SlackRepository } from './slack/slack.repository';
import { TeamsModule } from '../teams/teams.module';
import { periodicJobProvider } from '../jobs/periodic-job.provider';

/**
 * Notifications to people (issue 30): the outbox that hears the interrupts' events in their
 * transactions (and invitations), the delivery worker every instance runs on the job runner
 * (woken by the organisation-event announcements, else every NOTIFICATION_POLL_INTERVAL for
 * digests and retries coming due), and Settings → Notifications.
 */
@Module({
  imports: [WebhooksModule, OrganisationModule, InterruptsModule, TeamsModule],
  controllers: [
    NotificationsController,
    ActionLinksController,
    SlackSettingsController,
    SlackInteractionsController,
  ],
  providers: [
    NotificationsRepository,
    NotificationSettingsService,
    ActionLinksService,
    SlackService,
    SlackRepository,
    {
      provide: SlackApi,
      inject: [APP_CONFIG, LOGGER],
      useFactory: (config: AppConfig, logger: Logger) =>
        new SlackApi(config.notifications.slackApiUrl, logger),
    },
    {
      provide: SLACK_SECRET_BOX,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new WebhookSecretBox(config.apiKeyPepper, 'slack/v1'),
    },
    {
      provide: SlackOutbox,
      inject: [WebhookOutbox],
      useFactory: (events: WebhookOutbox) => {
        const outbox = new SlackOutbox();
        events.listen(outbox);
        return outbox;
      },
    },
    {
      provide: SlackDeliveryWorker,
      inject: [
        DataSource,
        APP_CONFIG,
        SlackApi,
        SLACK_SECRET_BOX,
        LOGGER,
        JobRunner,
        NotificationBus,
      ],
      useFactory: (
        dataSource: DataSource,
        config: AppConfig,
        slack: SlackApi,
        box: WebhookSecretBox,
        logger: Logger,
        runner: JobRunner,
        bus: NotificationBus,
      ) => {
        const worker = new SlackDeliveryWorker(
          dataSource,
          config.notifications,
          slack,
          box,
          config.dashboardUrl,
          logger,
        );
        runner.register(worker);
        bus.subscribe(ORGANISATION_EVENTS_CHANNEL, () => runner.wake(SlackDeliveryWorker.NAME));
        return worker;
      },
    },
    {
      provide: ActionLinkSigner,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new ActionLinkSigner(config.apiKeyPepper),
    },
    {
      provide: NotificationOutbox,
      inject: [APP_CONFIG, WebhookOutbox],
      useFactory: (config: AppConfig, events: WebhookOutbox) => {
        const outbox = new NotificationOutbox(
          config.notifications.retryScheduleMs.length + 1,
          new WebhookSecretBox(config.apiKeyPepper, 'notification-links/v1'),
          config.accounts.emailVerification === 'required',
        );
        events.listen(outbox);
        return outbox;
      },
    },
    periodicJobProvider(
      DeadlineWarningJob,
      [DataSource, InterruptsRepository, NotificationOutbox, JobRunner],
      (
        dataSource: DataSource,
        interrupts: InterruptsRepository,
        outbox: NotificationOutbox,
        runner: JobRunner,
      ) =>
        new DeadlineWarningJob(dataSource, interrupts, outbox, () =>
          runner.wake(NotificationDeliveryWorker.NAME),
        ),
    ),
    {
      provide: MessageRenderer,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) =>
        new MessageRenderer(config.dashboardUrl, new InvitationEmailProof(config.apiKeyPepper)),
    },
    outboxWorkerProvider(
      NotificationDeliveryWorker,
      [Mailer, MessageRenderer, NotificationOutbox, ActionLinkSigner],
      (
        base,
        config,
        mailer: Mailer,
        renderer: MessageRenderer,
        outbox: NotificationOutbox,
        signer: ActionLinkSigner,
      ) =>
        new NotificationDeliveryWorker(
          base,
          config.notifications,
          mailer,
          renderer,
          outbox,
          signer,
        ),
    ),
  ],
  exports: [NotificationOutbox],
})
export class NotifyModule {}
