import { useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';

/**
 * The page's query parameters as last asked for, and setters that build on them (each replaces
 * the history entry).
 *
 * The router applies an address change as a React transition: until that renders, its
 * `searchParams` — and the argument of `setSearchParams`'s updater — are still the old address,
 * and on a busy phone the person may pick the next filter first. Built on the old address, that
 * pick brought back what "Clear every filter" had just cleared; and a page that redrew its fields
 * once the router caught up closed a dropdown the person had opened meanwhile. So the page draws
 * the address it asked for at once (an urgent render, in the same event), every change builds on
 * it, and the router catching up changes nothing on screen.
 */
export function useUrlParams() {
  const [shown, setSearchParams] = useSearchParams();
  // What this page asked for and the router has not shown yet, oldest first: a ref, so two changes
  // in one event build on each other; `latest` draws the last of them without waiting.
  const asked = useRef<string[]>([]);
  const [latest, setLatest] = useState<string | null>(null);
  useEffect(() => {
    const at = asked.current.lastIndexOf(shown.toString());
    // Shown: it and what was asked before it are done. Not ours (Back, a link): the router's
    // address wins. Nothing left to come: draw the router's address (the same; a later Back then
    // draws at once).
    asked.current = at < 0 ? [] : asked.current.slice(at + 1);
    if (asked.current.length === 0) setLatest(null);
  }, [shown]);
  const params = useMemo(
    () => (latest === null || latest === shown.toString() ? shown : new URLSearchParams(latest)),
    [latest, shown],
  );

  /** Replaces every parameter. */
  const replaceParams = (next: URLSearchParams) => {
    const address = next.toString();
    asked.current.push(address);
    setLatest(address);
    setSearchParams(next, { replace: true });
  };
  /** Sets one parameter (trimmed), or removes it when null or blank. */
  const setParam = (name: string, value: string | null) => {
    const next = new URLSearchParams(asked.current.at(-1) ?? shown);
    if (value === null || value.trim() === '') next.delete(name);
    else next.set(name, value.trim());
    replaceParams(next);
  };
  return { params, setParam, replaceParams };
}
