import {
  call,
  connectSlack,
  decideWithActionLink,
  disconnectSlack,
  getSlackSettings,
  getNotificationPreferences,
  previewActionLink,
  getNotificationSettings,
  listNotificationDeliveries,
  updateNotificationPreferences,
  updateNotificationSettings,
  type NotificationDeliveryResponse,
  type NotificationPreferenceSet,
} from '@interlock/api-client';
import {
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';

export const notificationKeys = {
  all: ['notifications'] as const,
  preferences: () => [...notificationKeys.all, 'preferences'] as const,
  settings: () => [...notificationKeys.all, 'settings'] as const,
  deliveries: (scope: 'mine' | 'organisation') =>
    [...notificationKeys.all, 'deliveries', scope] as const,
  slack: () => [...notificationKeys.all, 'slack'] as const,
};

/** While a notification is on its way, the list is read again every few seconds. */
const UNFINISHED: NotificationDeliveryResponse['status'][] = ['pending', 'sending'];

/** The member's notification preferences (Settings → Notifications). */
export const notificationPreferencesQuery = queryOptions({
  queryKey: notificationKeys.preferences(),
  queryFn: ({ signal }) => call(getNotificationPreferences({ signal })),
});

export function useNotificationPreferences() {
  return useQuery(notificationPreferencesQuery);
}

export function useNotificationSettings() {
  return useQuery({
    queryKey: notificationKeys.settings(),
    queryFn: ({ signal }) => call(getNotificationSettings({ signal })),
  });
}

/** Recent, a page at a time (newest first): "Load older" follows the answer's `nextCursor`. */
export function useNotificationDeliveries(scope: 'mine' | 'organisation') {
  return useInfiniteQuery({
    queryKey: notificationKeys.deliveries(scope),
    queryFn: ({ signal, pageParam }) =>
      call(
        listNotificationDeliveries({
          query: { scope, ...(pageParam === undefined ? {} : { cursor: pageParam }) },
          signal,
        }),
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) =>
        page.deliveries.some((d) => UNFINISHED.includes(d.status)),
      )
        ? 5_000
        : false,
  });
}

/** The organisation's Slack connection and its latest messages (read again while one is on its way). */
export function useSlackSettings() {
  return useQuery({
    queryKey: notificationKeys.slack(),
    queryFn: ({ signal }) => call(getSlackSettings({ signal })),
    refetchInterval: (query) =>
      query.state.data?.messages.some((m) => m.status === 'pending' || m.status === 'sending')
        ? 5_000
        : false,
  });
}

export function useConnectSlack() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: {
      botToken: string;
      signingSecret: string;
      channelId: string;
      teamId: string | null;
      minRisk: 'low' | 'medium' | 'high' | 'critical' | null;
    }) => call(connectSlack({ body })),
    onSuccess: (data) => queryClient.setQueryData(notificationKeys.slack(), data),
  });
}

export function useDisconnectSlack() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(disconnectSlack()),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationKeys.slack() }),
  });
}

export function useUpdateNotificationPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { timeZone?: string; preferences?: NotificationPreferenceSet }) =>
      call(updateNotificationPreferences({ body })),
    onSuccess: (data) => queryClient.setQueryData(notificationKeys.preferences(), data),
  });
}

export function useUpdateNotificationSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { defaults?: NotificationPreferenceSet; tokenActions?: boolean }) =>
      call(updateNotificationSettings({ body })),
    onSuccess: (data) => {
      queryClient.setQueryData(notificationKeys.settings(), data);
      return queryClient.invalidateQueries({ queryKey: notificationKeys.preferences() });
    },
  });
}

/** What an emailed single-use link would decide (a POST, so the token stays out of URLs; changes nothing). */
export function useActionLinkPreview(token: string) {
  return useQuery({
    queryKey: ['action-link', token],
    queryFn: () => call(previewActionLink({ body: { token } })),
    enabled: token !== '',
    retry: false,
    staleTime: Infinity,
  });
}

/** Decides with an emailed single-use link, as the member it was sent to. */
export function useDecideWithActionLink(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (message: string | undefined) =>
      call(
        decideWithActionLink({ body: { token, ...(message === undefined ? {} : { message }) } }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['action-link', token] }),
  });
}
