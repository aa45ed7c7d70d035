import { useEffect, useState } from 'react';
import { timeLeft } from '../utils/duration';

/** The time now, refreshed every `everyMs` while the component is shown. */
export function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), everyMs);
    return () => window.clearInterval(timer);
  }, [everyMs]);
  return now;
}

/** "4m 05s" until `deadline`, ticking every second; "overdue" once it has passed. */
export function Countdown({ deadline }: { deadline: string }) {
  const now = useNow(1_000);
  return <time dateTime={deadline}>{timeLeft(deadline, now)}</time>;
}
