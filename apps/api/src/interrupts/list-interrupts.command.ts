import type { InterruptStatus, Priority } from './interrupt.entity';

/** `me` and `my_teams` name the signed-in member; `unassigned` suits keys too. */
export const ASSIGNEE_FILTERS = ['me', 'my_teams', 'unassigned'] as const;
export type AssigneeFilter = (typeof ASSIGNEE_FILTERS)[number];

/** `me`: the API key making the request (the key that opened the interrupts). */
export const OPENED_BY_FILTERS = ['me'] as const;
export type OpenedByFilter = (typeof OPENED_BY_FILTERS)[number];

export const LIST_ORDERS = ['newest', 'oldest', 'deadline'] as const;
export type ListOrder = (typeof LIST_ORDERS)[number];

/** Who `me` is in a listing: the signed-in member (`assignee`), or the API key (`openedBy`). */
export interface ListCaller {
  memberId?: string;
  apiKeyId?: string;
}

/** The inbox's filters and the page asked for (SPEC §3, §6), as plain values. */
export interface InterruptListing {
  status?: InterruptStatus;
  externalId?: string;
  assignee?: AssigneeFilter;
  openedBy?: OpenedByFilter;
  escalated?: boolean;
  /** Only these priorities (SPEC §8e `?priority=high,urgent`). */
  priority?: Priority[];
  /** Only interrupts with this label, the agent's or the classifier's. */
  label?: string;
  /** Title words. */
  q?: string;
  from?: string;
  to?: string;
  order?: ListOrder;
  /** The previous page's `nextCursor`, with the same filters. */
  cursor?: string;
  limit?: number;
}

/**
 * A page of the organisation's interrupts: the input of `InterruptsService.list` and
 * `listAnswer`, built by the REST controller from its query (the validated `ListInterruptsQuery`
 * is an `InterruptListing`) and by the MCP backend for an agent's own open interrupts.
 */
export interface ListInterruptsCommand {
  organisationId: string;
  caller: ListCaller;
  listing: InterruptListing;
}
