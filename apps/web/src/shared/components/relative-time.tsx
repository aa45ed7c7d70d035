import { useSyncExternalStore } from 'react';
import { dateTime, relativeTime } from '../utils/format';

/** How often every relative time on the page moves on. */
const TICK_MS = 30_000;

/**
 * One clock for every relative time on the page: a 30-second tick shared by all of them (the
 * inbox shows 50 or more), running only while one is shown (so at most 30 s behind). Subscribing
 * leaves the time as it is: a snapshot that changed between a row's render and its subscription
 * would draw every row a second time (React re-renders on that change); a clock stopped for a
 * tick or longer moves on when it is next read instead.
 */
const clock = (() => {
  let now = Date.now();
  const listeners = new Set<() => void>();
  let timer: number | undefined;
  return {
    subscribe(listener: () => void) {
      listeners.add(listener);
      if (timer === undefined) {
        timer = window.setInterval(() => {
          now = Date.now();
          for (const l of listeners) l();
        }, TICK_MS);
      }
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) {
          window.clearInterval(timer);
          timer = undefined;
        }
      };
    },
    now: () => {
      if (timer === undefined && Date.now() - now >= TICK_MS) now = Date.now();
      return now;
    },
  };
})();

/**
 * "5 minutes ago", kept fresh, with the exact time on hover (the title) and for assistive
 * technology (`dateTime`). A plain element, no tooltip component: the inbox renders one a row,
 * and each tooltip is a floating-position hook set of its own.
 */
export function RelativeTime({ value }: { value: string }) {
  const now = useSyncExternalStore(clock.subscribe, clock.now);
  return (
    <time dateTime={value} title={dateTime(value)}>
      {relativeTime(value, now)}
    </time>
  );
}
