import type { MemberCall } from '../auth/caller';
import type { WebhookSettings } from './create-webhook.command';

/**
 * Change a webhook (SPEC §6): the input of `WebhooksService.update`; only the settings given
 * change (the validated `UpdateWebhookDto` is such a `changes`).
 */
export interface UpdateWebhookCommand extends MemberCall {
  webhookId: string;
  changes: Partial<WebhookSettings>;
}
