import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, relative, sep } from 'node:path';
import serveStatic from 'serve-static';
import { pathOf } from './platform';

/** Paths the service answers itself: never the dashboard (an unknown `/api/…` stays a JSON 404). */
const SERVICE_PREFIXES = ['/api', '/docs', '/health', '/downloads'];

/**
 * The document's policy: scripts only from this origin, and the page's own inline scripts by
 * their hashes (the build's, read at start: the inbox's first reads start from one, before any
 * file is fetched); inline styles are allowed because the component library sets CSS variables
 * in a `<style>` element; requests (fetch, the event streams) only to this origin; the dashboard
 * may not be framed.
 */
export function dashboardCsp(index: string): string {
  const hashes = inlineScripts(index).map(
    (script) => ` 'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`,
  );
  return [
    "default-src 'self'",
    `script-src 'self'${hashes.join('')}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The text of each `<script>` without a `src` (and without attributes, as the build writes them). */
function inlineScripts(index: string): string[] {
  return [...index.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
}

/** The encodings the build writes beside each JS and CSS file (apps/web/vite.config.ts), best first. */
const PRECOMPRESSED = [
  { encoding: 'br', suffix: '.br' },
  { encoding: 'gzip', suffix: '.gz' },
] as const;
type Encoding = (typeof PRECOMPRESSED)[number]['encoding'];

const PRECOMPRESSED_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/**
 * Whether the request's `Accept-Encoding` takes `encoding` (named, or `*`, with a q above 0).
 * The best of the encodings the build wrote is sent; the server's own preference decides
 * between accepted ones (Brotli is the smaller), as browsers weigh them alike.
 */
export function acceptsEncoding(header: string | undefined, encoding: string): boolean {
  if (header === undefined) return false;
  let star: boolean | undefined;
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p)).find((m) => m !== null);
    const accepted = q === undefined || Number(q[1]) > 0;
    if (name.trim() === encoding) return accepted;
    if (name.trim() === '*') star = accepted;
  }
  return star ?? false;
}

/** Each prefix with its slash (`/api/`), made once: every request asks (issue 28). */
const SERVICE_FOLDERS = SERVICE_PREFIXES.map((prefix) => `${prefix}/`);

export function isServicePath(path: string): boolean {
  for (let i = 0; i < SERVICE_PREFIXES.length; i++) {
    if (path === SERVICE_PREFIXES[i] || path.startsWith(SERVICE_FOLDERS[i])) return true;
  }
  return false;
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
 * are (hashed `/assets/*` cached for a year; their JS and CSS as the build's Brotli or gzip copy
 * when the browser accepts one), and `index.html` for every other page navigation so client
 * routes such as `/inbox` load the app. `/api`, `/docs` and `/health` are left to the service.
 * When the dashboard was not built, a navigation says how to build it.
 *
 * Works on Node's request and response, so both HTTP adapters run it before routing. The build
 * is read once at start (its index, the compressed copies of its assets, and the list of its
 * files, so whether a path is a file is known without touching the disk); a rebuild needs a
 * restart, as it always did for the index.
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
  const csp = dashboardCsp(index.toString('utf8'));
  const assetsDir = join(webDir, 'assets');
  const builtFiles = new Set<string>();
  /** Path → the compressed copies the build wrote of it (held in memory: a few hundred KB). */
  const compressed = new Map<string, Map<Encoding, Buffer>>();
  for (const file of listFiles(webDir)) {
    const copy = PRECOMPRESSED.find((p) => file.endsWith(p.suffix));
    const original = copy === undefined ? file : file.slice(0, -copy.suffix.length);
    const path = `/${relative(webDir, original).split(sep).join('/')}`;
    const servable =
      copy !== undefined &&
      original.startsWith(`${assetsDir}${sep}`) &&
      PRECOMPRESSED_TYPES[extname(original)] !== undefined &&
      existsSync(original);
    // A compressed copy is never a file of its own: only the original's other form.
    if (copy === undefined) builtFiles.add(path);
    else if (servable) {
      const copies = compressed.get(path) ?? new Map<Encoding, Buffer>();
      copies.set(copy.encoding, readFileSync(file));
      compressed.set(path, copies);
    }
  }
  const files = serveStatic(webDir, {
    index: false,
    redirect: false,
    fallthrough: true,
    setHeaders(res, path) {
      res.setHeader('x-content-type-options', 'nosniff');
      res.setHeader(
        'cache-control',
        path.startsWith(`${assetsDir}${sep}`) ? IMMUTABLE : 'no-cache',
      );
      // The same path is sent compressed to other browsers: a cache keeps them apart.
      if (compressed.has(`/${relative(webDir, path).split(sep).join('/')}`))
        res.setHeader('vary', 'accept-encoding');
    },
  });
  /** The build's compressed copy of an asset, when the browser accepts one (never for a range). */
  const sendCompressed = (req: IncomingMessage, res: ServerResponse, path: string) => {
    const copies = compressed.get(path);
    if (copies === undefined || req.headers.range !== undefined) return undefined;
    const accepted = PRECOMPRESSED.find(
      (p) => copies.has(p.encoding) && acceptsEncoding(req.headers['accept-encoding'], p.encoding),
    );
    if (accepted === undefined) return undefined;
    const body = copies.get(accepted.encoding) as Buffer;
    return () => {
      res.statusCode = 200;
      res.setHeader('content-type', PRECOMPRESSED_TYPES[extname(path)]);
      res.setHeader('content-encoding', accepted.encoding);
      res.setHeader('vary', 'accept-encoding');
      res.setHeader('cache-control', IMMUTABLE);
      res.setHeader('x-content-type-options', 'nosniff');
      res.setHeader('content-length', String(body.length));
      res.end(req.method === 'HEAD' ? undefined : body);
    };
  };
  const sendIndex = (res: ServerResponse) => {
    res.statusCode = 200;
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.setHeader('cache-control', 'no-cache');
    res.setHeader('content-security-policy', csp);
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('referrer-policy', 'same-origin');
    res.setHeader('content-length', String(index.length));
    res.end(index);
  };
  return (req, res) => {
    const path = pathOf(req);
    if (isServicePath(path) || (req.method !== 'GET' && req.method !== 'HEAD')) return undefined;
    if (path === '/' || path === '/index.html') return () => sendIndex(res);
    const file = safeDecode(path);
    if (builtFiles.has(file))
      return sendCompressed(req, res, file) ?? (() => files(req, res, () => sendIndex(res)));
    return wantsPage(req) ? () => sendIndex(res) : undefined;
  };
}

const IMMUTABLE = 'public, max-age=31536000, immutable';

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
