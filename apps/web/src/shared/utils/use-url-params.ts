import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';

/**
 * The page's query parameters, and setters that build on the latest address this page asked for.
 *
 * The router applies an address change as a React transition: until that renders, the page's
 * `params` — and the argument of `setSearchParams`'s updater — are still the old address, and on a
 * busy phone the person may pick the next filter first. Built on the old address, that change
 * brought back what had just been cleared ("Clear every filter", then a target: the cleared actor
 * returned). So every change here starts from the last address asked for and not yet shown, and
 * replaces the history entry.
 */
export function useUrlParams() {
  const [params, setSearchParams] = useSearchParams();
  // The addresses this page asked for that the router has not shown yet, oldest first.
  const asked = useRef<string[]>([]);
  useEffect(() => {
    const at = asked.current.indexOf(params.toString());
    // Shown: it and those before it are done. Not one of ours (Back, a link): forget them all.
    asked.current = at < 0 ? [] : asked.current.slice(at + 1);
  }, [params]);

  /** Replaces every parameter. */
  const replaceParams = (next: URLSearchParams) => {
    asked.current.push(next.toString());
    setSearchParams(next, { replace: true });
  };
  /** Sets one parameter (trimmed), or removes it when null or blank. */
  const setParam = (name: string, value: string | null) => {
    const next = new URLSearchParams(asked.current.at(-1) ?? params);
    if (value === null || value.trim() === '') next.delete(name);
    else next.set(name, value.trim());
    replaceParams(next);
  };
  return { params, setParam, replaceParams };
}
