import { Tooltip } from '@mantine/core';
import { useEffect, useState } from 'react';
import { dateTime, relativeTime } from '../utils/format';

/** "5 minutes ago", kept fresh, with the exact time on hover and for assistive technology. */
export function RelativeTime({ value }: { value: string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 30_000);
    return () => window.clearInterval(timer);
  }, []);
  return (
    <Tooltip label={dateTime(value)} openDelay={300}>
      <time dateTime={value} title={dateTime(value)}>
        {relativeTime(value, now)}
      </time>
    </Tooltip>
  );
}
