import {
  call,
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhookDeliveries,
  listWebhooks,
  retryWebhookDelivery,
  rotateWebhookSecret,
  testWebhook,
  updateWebhook,
  type CreateWebhookDto,
  type UpdateWebhookDto,
  type WebhookDeliveryResponse,
} from '@interlock/api-client';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useInvalidatingMutation } from '@/shared/utils/invalidating-mutation';
import { callById } from '@/shared/utils/call-by-id';

export const webhookKeys = {
  all: ['webhooks'] as const,
  list: () => [...webhookKeys.all, 'list'] as const,
  detail: (id: string) => [...webhookKeys.all, 'detail', id] as const,
  deliveries: (id: string) => [...webhookKeys.all, 'deliveries', id] as const,
};

/** While a delivery is on its way, its row is read again every few seconds (the worker moves it on). */
const UNFINISHED: WebhookDeliveryResponse['status'][] = ['pending', 'delivering'];
const REFRESH_WHILE_UNFINISHED_MS = 2_000;

export function useWebhooks() {
  return useQuery({
    queryKey: webhookKeys.list(),
    queryFn: async ({ signal }) => (await call(listWebhooks({ signal }))).webhooks,
  });
}

export function useWebhook(id: string) {
  return useQuery({
    queryKey: webhookKeys.detail(id),
    queryFn: ({ signal }) => call(getWebhook({ path: { id }, signal })),
  });
}

export function useWebhookDeliveries(id: string) {
  return useInfiniteQuery({
    queryKey: webhookKeys.deliveries(id),
    queryFn: ({ pageParam, signal }) =>
      call(
        listWebhookDeliveries({
          path: { id },
          query: { limit: 50, cursor: pageParam ?? undefined },
          signal,
        }),
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) =>
        page.deliveries.some((d) => UNFINISHED.includes(d.status)),
      )
        ? REFRESH_WHILE_UNFINISHED_MS
        : false,
  });
}

export function useCreateWebhook() {
  return useInvalidatingMutation(
    (body: CreateWebhookDto) => call(createWebhook({ body })),
    [webhookKeys.list()],
  );
}

export function useUpdateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateWebhookDto }) =>
      call(updateWebhook({ path: { id }, body })),
    onSuccess: (webhook) => {
      queryClient.setQueryData(webhookKeys.detail(webhook.id), webhook);
      return queryClient.invalidateQueries({ queryKey: webhookKeys.all });
    },
  });
}

export function useDeleteWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: callById(deleteWebhook),
    onSuccess: (_, id: string) => {
      queryClient.removeQueries({ queryKey: webhookKeys.detail(id) });
      queryClient.removeQueries({ queryKey: webhookKeys.deliveries(id) });
      return queryClient.invalidateQueries({ queryKey: webhookKeys.list() });
    },
  });
}

export function useRotateWebhookSecret() {
  return useInvalidatingMutation(callById(rotateWebhookSecret), (webhook) => [
    webhookKeys.detail(webhook.id),
  ]);
}

export function useSendTestEvent() {
  return useInvalidatingMutation(callById(testWebhook), (_, id) => [webhookKeys.deliveries(id)]);
}

export function useRetryDelivery() {
  return useInvalidatingMutation(
    ({ webhookId, deliveryId }: { webhookId: string; deliveryId: string }) =>
      call(retryWebhookDelivery({ path: { id: webhookId, deliveryId } })),
    (_, { webhookId }) => [webhookKeys.deliveries(webhookId)],
  );
}
