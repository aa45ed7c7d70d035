import type { DeliveryStatus } from './webhook-delivery.entity';

/**
 * A page of one webhook's deliveries, newest first (SPEC §6): the input of
 * `WebhooksService.listDeliveries`, built by the REST controller from its query (the validated
 * `ListWebhookDeliveriesQuery` is such a `listing`).
 */
export interface ListWebhookDeliveriesCommand {
  organisationId: string;
  webhookId: string;
  listing: {
    status?: DeliveryStatus;
    /** The previous page's `nextCursor`, with the same filters. */
    cursor?: string;
    limit?: number;
  };
}
