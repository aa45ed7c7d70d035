import type { Request } from 'express';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * SPEC §3 CSRF rule for human routes: an unsafe request whose `Sec-Fetch-Site` is `cross-site`,
 * or whose `Origin` is not one of ours, is refused. Requests with neither header (scripts,
 * non-browser clients) pass; browsers always send at least one on cross-site unsafe requests.
 */
export function isCrossSiteRequest(req: Request, allowedOrigins: ReadonlySet<string>): boolean {
  if (SAFE_METHODS.has(req.method)) return false;
  if (req.headers['sec-fetch-site'] === 'cross-site') return true;
  const origin = req.headers.origin;
  return origin !== undefined && !allowedOrigins.has(origin);
}
