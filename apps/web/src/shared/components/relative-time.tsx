import { useSyncExternalStore } from 'react';
import { dateTime, relativeTime } from '../utils/format';

/**
 * One clock for every relative time on the page: a 30-second tick shared by all of them (the
 * inbox shows 50 or more), running only while one is shown (so at most 30 s behind).
 */
const clock = (() => {
  let now = Date.now();
  const listeners = new Set<() => void>();
  let timer: number | undefined;
  return {
    subscribe(listener: () => void) {
      listeners.add(listener);
      if (timer === undefined) {
        now = Date.now();
        timer = window.setInterval(() => {
          now = Date.now();
          for (const l of listeners) l();
        }, 30_000);
      }
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) {
          window.clearInterval(timer);
          timer = undefined;
        }
      };
    },
    now: () => now,
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
