import type { QueryClient } from '@tanstack/react-query';
import { webhookKeys } from './webhooks.queries';

/**
 * After interrupt or session events: every event may have queued deliveries (written with the
 * change), so an open deliveries table is read again; it then follows them until they finish.
 */
export function refreshWebhookDeliveries(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: [...webhookKeys.all, 'deliveries'] });
}
