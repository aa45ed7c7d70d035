import type { MemberCall } from '../auth/caller';

/** What a webhook is: where it posts, what it is for, which events, whether it delivers. */
export interface WebhookSettings {
  url: string;
  description?: string;
  /** Event types it receives; null (or absent at creation) for every type. */
  eventTypes?: string[] | null;
  enabled?: boolean;
}

/**
 * Create a webhook (SPEC §6): the input of `WebhooksService.create`, built by the REST controller
 * from its validated body (the `CreateWebhookDto` is a `WebhookSettings`). Plain values.
 */
export interface CreateWebhookCommand extends MemberCall {
  webhook: WebhookSettings;
}
