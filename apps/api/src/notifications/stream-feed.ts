import type { Permission } from '@interlock/domain';

/**
 * A live feed (the Live View, the organisation's events) as its service sees it, without HTTP:
 * where each open stream stands, what it sends next, and whether its member may still watch.
 * The HTTP layer (`http/sse-streams.ts`) holds the open responses, the headers, the heartbeats,
 * the client's drain, the sign-in cookie and the shutdown, and drives a feed through this.
 */
export interface FeedCursor {
  /** The organisation the stream is for: its member is re-checked against it. */
  readonly organisationId: string;
  /** What announcements name (a session, an organisation): the streams woken together. */
  readonly key: string;
}

/** Where a feed writes one stream's events. */
export interface FeedOutput {
  /** True once the client left or the stream was closed: stop sending. */
  readonly closed: boolean;
  /** Sends SSE frames, waiting while a slow client drains (the stream closes if it never does). */
  write(chunk: string): Promise<void>;
  /** Ends the stream (the feed has nothing more to send). */
  close(): void;
}

/** How a stream begins: nothing more will ever come (204), or its first event and its cursor. */
export type FeedStart<C extends FeedCursor> =
  { kind: 'finished' } | { kind: 'open'; cursor: C; first: string };

export interface StreamFeed<C extends FeedCursor> {
  /** What the streams are, for log lines. */
  readonly name: string;
  /** Heartbeat interval: each heartbeat re-checks the member and catches the stream up. */
  readonly heartbeatMs: number;
  /**
   * Subscribes to the changes the streams follow: `wake(key, which)` for the streams of `key`
   * (those `which` accepts), `resync()` for all (announcements may have been missed). Returns
   * the unsubscribe.
   */
  watch(
    wake: (key: string, which?: (cursor: C) => boolean) => void,
    resync: () => void,
  ): () => void;
  /**
   * Of the open streams, those with something to send (or to end): where each stands checked in
   * one query for all of them, so a heartbeat costs the pool a constant number of queries
   * however many streams are open. Only these are filled at the heartbeat.
   */
  pending(cursors: readonly C[]): Promise<readonly C[]>;
  /** Sends the stream what it has not seen yet (and may close it). Called one at a time per stream. */
  fill(cursor: C, out: FeedOutput): Promise<void>;
  /** With the member's permissions as they are now: whether the stream may go on (it may adjust the cursor). */
  mayStillWatch(cursor: C, permissions: ReadonlySet<Permission>): boolean;
}
