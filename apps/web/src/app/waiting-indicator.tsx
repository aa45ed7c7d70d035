import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useInterruptCounts } from '@/features/interrupts/api/interrupts.queries';
import { notificationPreferencesQuery } from '@/features/notifications/api/notifications.queries';
import { browserNotificationsOn } from '@/shared/preferences/browser-notifications';
import { faviconWithCount, titleWithCount } from './waiting-count';

/**
 * While the dashboard is open (in a background tab too): the tab's title and favicon show how
 * many open interrupts wait for you (assigned to you or a team of yours), kept current by the live events that
 * refresh the inbox counts (issue 30, §3). When that number grows while the tab is hidden, and
 * the member turned browser notifications on here (and has not set assignments' browser
 * channel off), the browser shows a notification; clicking it opens the inbox's Mine tab.
 */
export function WaitingIndicator() {
  const queryClient = useQueryClient();
  const counts = useInterruptCounts();
  const count = counts.data?.waitingForMe.count ?? 0;
  const known = useRef<number | undefined>(undefined);
  useEffect(() => {
    const before = known.current;
    known.current = count;
    if (before === undefined || count <= before || !document.hidden || !browserNotificationsOn())
      return;
    // The preferences are read only now, when a notification may be shown (not on every page's
    // first load): from the cache when Settings read them already.
    void queryClient.fetchQuery(notificationPreferencesQuery).then(
      (preferences) => {
        if (preferences.effective['interrupt.assigned']?.browser === 'off') return;
        notifyWaiting(count);
      },
      // Unknown preferences: the browser channel is on unless the member set it off.
      () => notifyWaiting(count),
    );
  }, [count, queryClient]);
  useEffect(() => {
    const apply = () => {
      const next = titleWithCount(document.title, count);
      if (next !== document.title) document.title = next;
    };
    apply();
    // Pages set their own titles as they open: put the count back in front.
    const title = document.querySelector('title');
    const observer = title === null ? undefined : new MutationObserver(apply);
    if (title !== null) observer?.observe(title, { childList: true });
    let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (link === null) {
      link = document.createElement('link');
      link.rel = 'icon';
      document.head.appendChild(link);
    }
    link.type = 'image/svg+xml';
    link.href = faviconWithCount(count);
    return () => observer?.disconnect();
  }, [count]);
  return null;
}

/** The browser notification: how many wait; a click opens the inbox's Mine tab. */
function notifyWaiting(count: number) {
  const shown = new Notification(
    count === 1 ? '1 interrupt waits for you' : `${count} interrupts wait for you`,
    {
      body: 'Assigned to you or your teams in Interlock.',
      tag: 'interlock-waiting',
    },
  );
  shown.onclick = () => {
    window.focus();
    window.location.assign('/inbox?tab=mine');
  };
}
