/**
 * The bus channel on which "this organisation's audit log grew" is announced to every instance.
 * The payload is the organisation id alone: streams read the events themselves from the audit
 * log, so an announcement carries nothing that could be lost.
 */
export const ORGANISATION_EVENTS_CHANNEL = 'interlock_org_events';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function decodeOrganisationAnnouncement(payload: string): string | undefined {
  return UUID.test(payload) ? payload : undefined;
}
