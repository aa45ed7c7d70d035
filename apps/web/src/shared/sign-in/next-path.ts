/** Any origin will do: only whether `next` stays on it matters. */
const PROBE_ORIGIN = 'https://interlock.invalid';

/**
 * Where to go after signing in (`?next=`): a path of this app, else the start page (`/`).
 * Refused: anything not starting with exactly one `/`; any backslash (a browser reads it as a
 * slash, so `/\evil.com` is `//evil.com`) and any control character (browsers drop tabs and line
 * breaks from URLs); and anything that, resolved as a URL, leaves this origin or normalises to
 * `//…` (`/..//evil.com`). What is kept is the normalised path, query and fragment.
 */
export function safeNextPath(next: string | null): string {
  if (next === null || !next.startsWith('/') || next.startsWith('//')) return '/';
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f\u007f]/.test(next)) return '/';
  let url: URL;
  try {
    url = new URL(next, PROBE_ORIGIN);
  } catch {
    return '/';
  }
  if (url.origin !== PROBE_ORIGIN || url.pathname.startsWith('//')) return '/';
  return `${url.pathname}${url.search}${url.hash}`;
}
