import { client } from '../generated/client.gen';

/** The header a signed-in person names the organisation they act for with (docs/DECISIONS.md). */
export const ORGANISATION_HEADER = 'x-organisation-id';
/** The same choice as a query parameter, for EventSource (which cannot send headers). */
export const ORGANISATION_QUERY = 'organisationId';

let installed = false;

/**
 * Sends `x-organisation-id` with every request of the generated client, from `current()` at
 * the moment of the request (the tab's chosen organisation). Installed once.
 */
export function sendOrganisationWith(current: () => string | undefined): void {
  if (installed) return;
  installed = true;
  client.interceptors.request.use((request) => {
    const organisationId = current();
    if (organisationId !== undefined && !request.headers.has(ORGANISATION_HEADER)) {
      request.headers.set(ORGANISATION_HEADER, organisationId);
    }
    return request;
  });
}

/** An event-stream URL acting for `organisationId` (EventSource cannot send the header). */
export function eventStreamUrl(path: string, organisationId: string | undefined): string {
  if (organisationId === undefined) return path;
  const separator = path.includes('?') ? '&' : '?';
  return `${path}${separator}${ORGANISATION_QUERY}=${encodeURIComponent(organisationId)}`;
}
