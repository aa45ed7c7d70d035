import { client } from '../generated/client.gen';

/**
 * Sends every request of the generated client through `fetcher` (it gets the finished Request,
 * headers and all, and answers it: e.g. from a read the page started before the app loaded).
 */
export function sendRequestsThrough(fetcher: (request: Request) => Promise<Response>): void {
  client.setConfig({ fetch: fetcher as typeof fetch });
}
