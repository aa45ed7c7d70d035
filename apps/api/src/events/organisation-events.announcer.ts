import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { LOGGER } from '../logging/logger.module';
import { NotificationBus } from '../notifications/notification-bus';
import { ORGANISATION_EVENTS_CHANNEL } from './organisation-events-channel';

/**
 * Wakes the organisation's event streams on every instance after a change that wrote an event
 * (interrupt opened, decided, assigned, unassigned, escalated; session started, ended). Call it after the
 * change committed; a lost announcement only delays the event to the streams' next heartbeat.
 */
@Injectable()
export class OrganisationEventsAnnouncer {
  constructor(
    private readonly bus: NotificationBus,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async announce(organisationId: string): Promise<void> {
    try {
      await this.bus.publish(ORGANISATION_EVENTS_CHANNEL, organisationId);
    } catch (error) {
      this.logger.warn({ err: error, organisationId }, 'could not announce an organisation event');
    }
  }
}
