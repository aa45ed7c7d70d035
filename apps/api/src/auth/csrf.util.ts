import type { HttpRequest } from '../http/platform';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * SPEC §3 CSRF rule for human routes: an unsafe request whose `Sec-Fetch-Site` is `cross-site`,
 * or whose `Origin` is not one of ours, is refused. Requests with neither header (scripts,
 * non-browser clients) pass; browsers always send at least one on cross-site unsafe requests.
 */
export function isCrossSiteRequest(req: HttpRequest, allowedOrigins: ReadonlySet<string>): boolean {
  if (SAFE_METHODS.has(req.method)) return false;
  if (req.headers['sec-fetch-site'] === 'cross-site') return true;
  const origin = req.headers.origin;
  return origin !== undefined && !allowedOrigins.has(origin);
}

/**
 * What a refused cross-site request is told (and what the log says): the origin it came from,
 * the one the service expects, and the settings that change that — so a person who opened the
 * dashboard at another address (127.0.0.1 rather than localhost, a proxy's name) can fix it.
 */
export function crossSiteRefusal(req: HttpRequest, publicOrigin: string): string {
  const origin = req.headers.origin;
  const from = origin === undefined || origin === 'null' ? 'another site' : origin;
  return (
    `Cross-site request refused: this service accepts browser requests from ${publicOrigin} (PUBLIC_ORIGIN), not from ${from}. ` +
    `Open the dashboard at ${publicOrigin}, or add ${from === 'another site' ? 'that origin' : from} to ALLOWED_ORIGINS (or set PUBLIC_ORIGIN to it) and restart the service.`
  );
}
