import { APIPromise } from '../api-promise';
import type { Interlock } from '../client';
import { APIUserAbortError, BadRequestError, WaitTimeoutError } from '../errors';
import {
  interruptsFromLangGraph,
  langGraphReviewId,
  type InterruptFromLangGraphOptions,
  type LangGraphResume,
  toLangGraphResume,
} from '../langgraph';
import type { PagePromise } from '../pagination';
import { type AskedAction, AskedInterrupts, checkDigests, expectedDigests } from '../action-digest';
import type { RequestOptions } from '../request-options';
import { nextTurn, sleep } from '../runtime';
import type {
  Interrupt,
  InterruptCancelParams,
  InterruptCreateParams,
  InterruptListParams,
  InterruptListResponse,
} from '../types';

export interface WaitForAnswerOptions extends Omit<RequestOptions, 'timeout' | 'idempotencyKey'> {
  /** Milliseconds to wait in all before `WaitTimeoutError`. Default 10 minutes; `Infinity` waits for ever. */
  timeout?: number;
  /**
   * Milliseconds between two reads when the service did not hold the request (an older service
   * that does not know `waitSeconds`, or one restarting). Default 2 000.
   */
  pollInterval?: number;
  /** Milliseconds each read may take besides its wait (the client's `timeout` by default). */
  requestTimeout?: number;
  /**
   * The actions the agent asked about, as it sent them (`create`'s `actionRequests`): the answer's
   * decisions must carry their digests (SPEC §8e, `actionDigest`), else `ActionDigestMismatchError`
   * — a decision about anything else is never returned. Not needed for an interrupt this client
   * opened (one of its last 10,000 creates): it checks against what that create sent. Without
   * either, nothing is checked.
   */
  actionRequests?: readonly AskedAction[];
}

export interface ReviewLangGraphOptions extends InterruptFromLangGraphOptions {
  /** How to wait for the answers (`waitForAnswer`'s options: `timeout`, `pollInterval`, `signal`…). */
  wait?: WaitForAnswerOptions;
  /** Per-request options of the create calls. */
  request?: Omit<RequestOptions, 'idempotencyKey'>;
}

export const DEFAULT_WAIT_TIMEOUT_MS = 10 * 60_000;
export const DEFAULT_POLL_INTERVAL_MS = 2_000;
/** The longest wait the service holds one request for (`waitSeconds`, SPEC §8e). */
export const MAX_WAIT_SECONDS = 60;

/**
 * Whether a read the service held `heldMs` for ran its whole wait. A hold of 20 s or more may end
 * early, no sooner than half of it, when many other waits would end with it on that instance (SPEC
 * §8e: agents whose waits began together are spread): that is a full wait too, and the next read is
 * sent at once — a pause there would leave a decision made meanwhile unseen for up to `pollInterval`.
 */
export function heldInFull(waitSeconds: number, heldMs: number): boolean {
  const earliest = waitSeconds >= 20 ? waitSeconds * 500 : waitSeconds * 1000;
  return heldMs >= earliest;
}

/** A 400 about `waitSeconds`: the service predates waiting, and the SDK polls it instead. */
function refusesWaiting(error: unknown): boolean {
  return error instanceof BadRequestError && /waitSeconds/.test(error.message);
}

/** Human-review requests: `/api/interrupts`. */
export class Interrupts {
  /** False once the service refused `waitSeconds` (an older service): then waits poll. */
  private serviceWaits = true;
  /** What this client asked in the interrupts it opened (the last 10,000). */
  private readonly asked = new AskedInterrupts();

  constructor(private readonly client: Interlock) {}

  /**
   * Opens an interrupt in the organisation's inbox. The client remembers what it asked (the
   * actions' digests, and whether the service sent digests), so `waitForAnswer` checks the answer.
   */
  create(params: InterruptCreateParams, options?: RequestOptions): APIPromise<Interrupt> {
    const sent = this.client.post<Interrupt>('/api/interrupts', { body: params, options });
    return new APIPromise(async () => {
      const { data, response, request_id } = await sent.withResponse();
      await this.asked.remember(data, params.actionRequests);
      return { data, response, requestId: request_id };
    });
  }

  /**
   * Withdraws an open interrupt the agent no longer needs (after a `WaitTimeoutError`, say): its
   * undecided actions can no longer be decided, and its status becomes `withdrawn`. Throws
   * `ConflictError` when it is no longer open.
   */
  cancel(
    id: string,
    params: InterruptCancelParams = {},
    options?: RequestOptions,
  ): APIPromise<Interrupt> {
    return this.client.post<Interrupt>(`/api/interrupts/${encodeURIComponent(id)}/cancel`, {
      body: params,
      options,
    });
  }

  /** One interrupt, with its decisions. */
  get(id: string, options?: RequestOptions): APIPromise<Interrupt> {
    return this.client.get<Interrupt>(`/api/interrupts/${encodeURIComponent(id)}`, { options });
  }

  /**
   * Interrupts, newest first (`order: 'oldest'` reverses; `order: 'deadline'`: the soonest
   * deadline first), filtered by `status`, `externalId`, `openedBy: 'me'` (this key's), `assignee: 'unassigned'`, `escalated`, `q` (title words as
   * prefixes), `from` / `to`; `for await` walks every page.
   */
  list(params: InterruptListParams = {}, options?: RequestOptions): PagePromise<Interrupt> {
    return this.client.getList<Interrupt, InterruptListResponse>(
      '/api/interrupts',
      params,
      (body) => body.interrupts,
      options,
    );
  }

  /**
   * Waits until the interrupt is no longer `open` — every action decided (`answered`), its
   * deadline passed (`expired`) or withdrawn (`withdrawn`) — and returns it; throws
   * `WaitTimeoutError` when `timeout` passes first. Each request is held by the service until the
   * interrupt changes or up to 60 s pass (`waitSeconds`), so a decision reaches the agent at once
   * and waiting costs one request a minute; against an older service it polls every `pollInterval`.
   *
   * The answer must be about the actions asked (SPEC §8e), else `ActionDigestMismatchError`: those
   * in `actionRequests`, or those this client's `create` sent. When that create's answer carried
   * digests, an answer without them is refused too (stripped on the way, not an older service).
   */
  async waitForAnswer(id: string, options: WaitForAnswerOptions = {}): Promise<Interrupt> {
    const {
      timeout = DEFAULT_WAIT_TIMEOUT_MS,
      pollInterval = DEFAULT_POLL_INTERVAL_MS,
      requestTimeout,
      actionRequests,
      ...requestOptions
    } = options;
    const deadline = Date.now() + timeout;
    const path = `/api/interrupts/${encodeURIComponent(id)}`;
    for (;;) {
      // The connection of the request before (the create, or the last wait) is back in the pool
      // by then, so one client keeps one connection from wait to wait.
      await nextTurn();
      const waitSeconds = this.serviceWaits
        ? Math.max(0, Math.min(MAX_WAIT_SECONDS, Math.floor((deadline - Date.now()) / 1000)))
        : 0;
      const sentAt = Date.now();
      let interrupt: Interrupt;
      try {
        interrupt = await this.client.get<Interrupt>(path, {
          query: waitSeconds > 0 ? { waitSeconds } : {},
          // The wait is the service's, not a stall: the request may take that long besides its own time.
          options: {
            ...requestOptions,
            timeout: (requestTimeout ?? this.client.timeout) + waitSeconds * 1000,
          },
        });
      } catch (error) {
        if (waitSeconds > 0 && refusesWaiting(error)) {
          this.serviceWaits = false;
          continue;
        }
        throw error;
      }
      if (interrupt.status !== 'open') {
        // Keyed by the id asked for: an answer about another interrupt hashes to other digests.
        const opened = this.asked.get(id);
        const expected =
          actionRequests === undefined
            ? opened?.expected
            : await expectedDigests(id, actionRequests);
        if (expected !== undefined) checkDigests(interrupt, expected, opened?.digested ?? false);
        return interrupt;
      }
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new WaitTimeoutError(id, timeout);
      // Held for its whole wait: ask again at once. Answered early while still open (a service
      // restarting, or one that does not hold requests): pause first.
      if (waitSeconds > 0 && heldInFull(waitSeconds, Date.now() - sentAt)) continue;
      try {
        await sleep(Math.min(pollInterval, remaining), requestOptions.signal);
      } catch (cause) {
        throw new APIUserAbortError({ cause });
      }
    }
  }

  /**
   * The whole LangGraph round trip: opens the interrupt(s) for the graph's review request (`source`:
   * a run's result, its `__interrupt__` list, one interrupt or a bare value; split when it has more
   * than 20 actions), waits until members have answered every one, and returns the value to resume
   * the graph with: `await graph.invoke(new Command({ resume }), config)`.
   *
   * The creates carry an Idempotency-Key made from the LangGraph interrupt ids, so an agent that
   * restarts and reviews the same interrupts again within 24 hours finds its interrupts rather
   * than opening new ones.
   */
  async reviewLangGraph(
    source: unknown,
    options: ReviewLangGraphOptions = {},
  ): Promise<LangGraphResume> {
    const { wait, request, ...params } = options;
    const parts = interruptsFromLangGraph(source, params);
    const created: Interrupt[] = [];
    for (const [i, part] of parts.entries()) {
      const review = langGraphReviewId(part);
      const idempotencyKey =
        review === undefined ? undefined : `langgraph-${review}-${i + 1}-of-${parts.length}`;
      created.push(await this.create(part, { ...request, idempotencyKey }));
    }
    const answered = await Promise.all(
      created.map((interrupt, i) =>
        this.waitForAnswer(interrupt.id, { ...wait, actionRequests: parts[i].actionRequests }),
      ),
    );
    return toLangGraphResume(answered, source);
  }
}
