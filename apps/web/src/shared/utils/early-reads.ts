import { ORGANISATION_HEADER, sendRequestsThrough } from '@interlock/api-client';

/** A read apps/web/early-reads.js started before the app's code loaded. */
export interface EarlyRead {
  /** Path and query, as the app's client asks for it. */
  url: string;
  organisation: string | undefined;
  /** When it was asked for (Date.now()). */
  at: number;
  response: Promise<Response>;
}

declare global {
  interface Window {
    __interlockEarlyReads?: EarlyRead[];
  }
}

/** An early answer older than this is not used (the app's first reads come well within it). */
export const EARLY_READ_MAX_AGE_MS = 10_000;

/**
 * The app's fetch: a GET that apps/web/early-reads.js already started for the same URL and
 * organisation (in the last few seconds) takes that answer, once; every other request goes to
 * the network. So the inbox's first reads run while its code downloads instead of after it.
 */
export function earlyFetch(request: Request): Promise<Response> {
  const reads = window.__interlockEarlyReads;
  if (reads !== undefined && reads.length > 0 && request.method === 'GET') {
    const url = new URL(request.url);
    const path = url.origin === window.location.origin ? url.pathname + url.search : null;
    const organisation = request.headers.get(ORGANISATION_HEADER) ?? undefined;
    const index = reads.findIndex(
      (r) =>
        r.url === path &&
        r.organisation === organisation &&
        Date.now() - r.at <= EARLY_READ_MAX_AGE_MS,
    );
    if (index >= 0) {
      const [read] = reads.splice(index, 1);
      // A read that failed on the way is asked for again, as if it had never started.
      return read.response.catch(() => fetch(request));
    }
  }
  return fetch(request);
}

/** Makes the generated client's requests go through earlyFetch (at start, before any read). */
export function installEarlyReads(): void {
  sendRequestsThrough(earlyFetch);
}
