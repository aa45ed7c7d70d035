import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, relative, sep } from 'node:path';
import serveStatic from 'serve-static';
import { pathOf } from './platform';

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
function wantsPage(req: IncomingMessage): boolean {
  return (
    (req.method === 'GET' || req.method === 'HEAD') &&
    (req.headers.accept ?? '').includes('text/html')
  );
}

/**
 * The dashboard's answer to one request, decided at once: a function that writes it on Node's
 * response, or undefined when the request is not the dashboard's (then it goes on to the routes).
 */
export type DashboardResponder = (
  req: IncomingMessage,
  res: ServerResponse,
) => (() => void) | undefined;

/**
 * Serves the built dashboard (apps/web, `vite build` into `webDir`) at `/`: its files as they
 * are (hashed `/assets/*` cached for a year), and `index.html` for every other page navigation
 * so client routes such as `/inbox` load the app. `/api`, `/docs` and `/health` are left to
 * the service. When the dashboard was not built, a navigation says how to build it.
 *
 * Works on Node's request and response, so both HTTP adapters run it before routing. The build
 * is read once at start (its index, and the list of its files, so whether a path is a file is
 * known without touching the disk); a rebuild needs a restart, as it always did for the index.
 */
export function dashboardResponder(
  webDir: string,
  onMissing: (indexPath: string) => void,
): DashboardResponder {
  const indexPath = join(webDir, 'index.html');
  if (!existsSync(indexPath)) {
    onMissing(indexPath);
    const text =
      'The Interlock dashboard is not built. Run `npx nx run web:build` (npm start does it), then reload.\n';
    return (req, res) => {
      if (isServicePath(pathOf(req)) || !wantsPage(req)) return undefined;
      return () => {
        res.statusCode = 503;
        res.setHeader('content-type', 'text/plain; charset=utf-8');
        res.setHeader('cache-control', 'no-store');
        res.setHeader('content-length', String(Buffer.byteLength(text)));
        res.end(text);
      };
    };
  }
  const index = readFileSync(indexPath);
  const builtFiles = new Set(
    listFiles(webDir).map((file) => `/${relative(webDir, file).split(sep).join('/')}`),
  );
  const files = serveStatic(webDir, {
    index: false,
    redirect: false,
    fallthrough: true,
    setHeaders(res, path) {
      res.setHeader('x-content-type-options', 'nosniff');
      res.setHeader(
        'cache-control',
        path.includes(`${join(webDir, 'assets')}`)
          ? 'public, max-age=31536000, immutable'
          : 'no-cache',
      );
    },
  });
  const sendIndex = (res: ServerResponse) => {
    res.statusCode = 200;
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.setHeader('cache-control', 'no-cache');
    res.setHeader('content-security-policy', DASHBOARD_CSP);
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('referrer-policy', 'same-origin');
    res.setHeader('content-length', String(index.length));
    res.end(index);
  };
  return (req, res) => {
    const path = pathOf(req);
    if (isServicePath(path) || (req.method !== 'GET' && req.method !== 'HEAD')) return undefined;
    if (path === '/' || path === '/index.html') return () => sendIndex(res);
    if (builtFiles.has(safeDecode(path))) return () => files(req, res, () => sendIndex(res));
    return wantsPage(req) ? () => sendIndex(res) : undefined;
  };
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return listFiles(path);
    return entry.isFile() ? [path] : [];
  });
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
