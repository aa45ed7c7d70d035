// What every call returns: a promise of the parsed body, with openai-node's escape hatches to the
// HTTP response (`asResponse()`, `withResponse()`). The result carries the request id as
// `_request_id` (not enumerable: it is in neither JSON.stringify nor equality checks).

/** The parsed body plus `_request_id`, the service's `x-request-id` for it (objects only). */
export type WithRequestID<T> = T extends
  readonly unknown[] | null | undefined | string | number | boolean
  ? T
  : T & { readonly _request_id?: string | null };

/** One finished call: the response (its body already read) and its parsed body. */
export interface APIResponse<T> {
  response: Response;
  data: T;
  requestId: string | null;
}

export class APIPromise<T> implements PromiseLike<WithRequestID<T>> {
  private parsed: Promise<WithRequestID<T>> | undefined;

  constructor(private readonly call: () => Promise<APIResponse<T>>) {}

  private sent: Promise<APIResponse<T>> | undefined;

  private response(): Promise<APIResponse<T>> {
    this.sent ??= this.call();
    return this.sent;
  }

  /**
   * The HTTP response of the call (after retries), without parsing it into the result type. Its
   * body can still be read (`await response.json()`).
   */
  async asResponse(): Promise<Response> {
    const { response } = await this.response();
    return response;
  }

  /** The parsed result together with the HTTP response and the request id. */
  async withResponse(): Promise<{
    data: WithRequestID<T>;
    response: Response;
    request_id: string | null;
  }> {
    const [data, { response, requestId }] = await Promise.all([this.parse(), this.response()]);
    return { data, response, request_id: requestId };
  }

  private parse(): Promise<WithRequestID<T>> {
    this.parsed ??= this.response().then(({ data, requestId }) => withRequestId(data, requestId));
    return this.parsed;
  }

  then<A = WithRequestID<T>, B = never>(
    onfulfilled?: ((value: WithRequestID<T>) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.parse().then(onfulfilled, onrejected);
  }

  catch<B = never>(
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<WithRequestID<T> | B> {
    return this.parse().catch(onrejected);
  }

  finally(onfinally?: (() => void) | null): Promise<WithRequestID<T>> {
    return this.parse().finally(onfinally);
  }

  get [Symbol.toStringTag](): string {
    return 'APIPromise';
  }
}

function withRequestId<T>(data: T, requestId: string | null): WithRequestID<T> {
  if (typeof data === 'object' && data !== null && !Array.isArray(data)) {
    Object.defineProperty(data, '_request_id', {
      value: requestId,
      enumerable: false,
      configurable: true,
      writable: true,
    });
  }
  return data as WithRequestID<T>;
}
