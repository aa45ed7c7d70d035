import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import express from 'express';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** Paths the service answers itself: never the dashboard (an unknown `/api/…` stays a JSON 404). */
const SERVICE_PREFIXES = ['/api', '/docs', '/health', '/downloads'];

/**
 * The document's policy: scripts only from this origin; inline styles are allowed because the
 * component library sets CSS variables in a `<style>` element; requests (fetch, the event
 * streams) only to this origin; the dashboard may not be framed.
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export function isServicePath(path: string): boolean {
  return SERVICE_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/** A browser navigation (it wants a page), as opposed to a script or an SDK that wants JSON. */
function wantsPage(req: Request): boolean {
  return (req.method === 'GET' || req.method === 'HEAD') && (req.headers.accept ?? '').includes('text/html');
}

/**
 * Serves the built dashboard (apps/web, `vite build` into `webDir`) at `/`: its files as they
 * are (hashed `/assets/*` cached for a year), and `index.html` for every other page navigation
 * so client routes such as `/inbox` load the app. `/api`, `/docs` and `/health` are left to
 * the service. When the dashboard was not built, a navigation says how to build it.
 */
export function dashboardMiddleware(webDir: string, onMissing: (indexPath: string) => void): RequestHandler {
  const indexPath = join(webDir, 'index.html');
  if (!existsSync(indexPath)) {
    onMissing(indexPath);
    return (req: Request, res: Response, next: NextFunction) => {
      if (isServicePath(req.path) || !wantsPage(req)) return next();
      res
        .status(503)
        .type('text/plain; charset=utf-8')
        .set('cache-control', 'no-store')
        .send('The Interlock dashboard is not built. Run `npx nx run web:build` (npm start does it), then reload.\n');
    };
  }
  const index = readFileSync(indexPath);
  const files = express.static(webDir, {
    index: false,
    redirect: false,
    fallthrough: true,
    setHeaders(res, path) {
      res.setHeader('x-content-type-options', 'nosniff');
      res.setHeader('cache-control', path.includes(`${join(webDir, 'assets')}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  const sendIndex = (res: Response) => {
    res
      .status(200)
      .type('text/html; charset=utf-8')
      .set({
        'cache-control': 'no-cache',
        'content-security-policy': DASHBOARD_CSP,
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'same-origin',
      })
      .send(index);
  };
  return (req: Request, res: Response, next: NextFunction) => {
    if (isServicePath(req.path) || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
    if (req.path === '/' || req.path === '/index.html') return sendIndex(res);
    files(req, res, () => (wantsPage(req) ? sendIndex(res) : next()));
  };
}
