/** `ended` is every session no longer active: ended by its agent, or disconnected by a member. */
export const SESSION_LIST_STATUSES = ['active', 'ended'] as const;
export type SessionListStatus = (typeof SESSION_LIST_STATUSES)[number];

/** The sessions list's filters and the page asked for (SPEC §3), as plain values. */
export interface SessionListing {
  status?: SessionListStatus;
  externalId?: string;
  /**
   * Words of the name, each a prefix of one of its words (case and accents ignored), or the
   * beginning of the id (`nameSearchOf`).
   */
  q?: string;
  /** The previous page's `nextCursor`, with the same filters. */
  cursor?: string;
  limit?: number;
}

/**
 * A page of the organisation's agent sessions, newest first: the input of `SessionsService.list`,
 * built by the REST controller from its query (the validated `ListSessionsQuery` is a
 * `SessionListing`).
 */
export interface ListSessionsCommand {
  organisationId: string;
  listing: SessionListing;
}
