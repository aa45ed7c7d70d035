import { type ReactNode, useEffect, useState } from 'react';

/** Past this, what waits for an idle moment is drawn anyway. */
const IDLE_TIMEOUT_MS = 2_000;

/**
 * Its children, drawn once the page that mounts it has been drawn and the main thread is idle,
 * for what the first paint does not show: a closed dialog is still a portal, a scroll lock,
 * transitions and (for a form) its fields to mount, the notifications a container per corner.
 * A cold load then draws what the reader waits for first (tools:bench-web). A dialog opened
 * before its turn opens when it is drawn, at once.
 */
export function AfterFirstPaint({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const show = () => setShown(true);
    if (typeof window.requestIdleCallback === 'function') {
      const handle = window.requestIdleCallback(show, { timeout: IDLE_TIMEOUT_MS });
      return () => window.cancelIdleCallback(handle);
    }
    const timer = window.setTimeout(show, 200);
    return () => window.clearTimeout(timer);
  }, []);
  return shown ? children : null;
}
