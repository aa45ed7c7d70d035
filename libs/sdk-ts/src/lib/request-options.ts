/** Options every method takes as its last argument; they override the client's for one call. */
export interface RequestOptions {
  /** Milliseconds to wait for each attempt's response before `APIConnectionTimeoutError`. */
  timeout?: number;
  /** Retries after the first attempt (0 disables them). */
  maxRetries?: number;
  /**
   * The `Idempotency-Key` of a POST. The SDK makes one per call and sends the same one on each
   * retry; pass your own to make a call idempotent across processes too.
   */
  idempotencyKey?: string;
  /** Extra headers; a `null` value removes a header the SDK would send. */
  headers?: Record<string, string | null | undefined>;
  /** Extra query parameters (openai's `extra_query`); they win over the call's own. */
  query?: Record<string, string | number | boolean | Date | null | undefined>;
  /** Extra top-level JSON body fields (openai's `extra_body`), for fields this SDK version does not know. */
  body?: Record<string, unknown>;
  /** Aborts the call (including waits between retries) with `APIUserAbortError`. */
  signal?: AbortSignal;
}

/** The `fetch` the client calls: the global one unless the client is given another. */
export type Fetch = (url: string, init: RequestInit) => Promise<Response>;
