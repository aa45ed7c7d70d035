import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  Interlock,
  type Fetch,
  type Interrupt,
  type InterruptCreateParams,
  type InterruptListResponse,
  type Session,
  type SessionMessage,
  type SessionStartParams,
} from '@interlock/sdk';
import {
  type CallOptions,
  type CreateOptions,
  type Created,
  InterlockBackend,
  InterlockBackendError,
  type KeyIdentity,
} from './backend';

/** Each call to the API may take this long: a wait polls again rather than hang on one call. */
const CALL_TIMEOUT_MS = 15_000;

export interface SdkBackendOptions {
  apiKey: string;
  /** The service's origin, e.g. https://interlock.example.com. */
  baseURL: string;
  /** A `fetch` implementation; defaults to the global one. */
  fetch?: Fetch;
  userAgent?: string;
}

/**
 * The stdio server's way to Interlock: the TypeScript SDK over HTTP, with the key from
 * INTERLOCK_API_KEY. The API answers every call itself (authentication, organisation, limits),
 * so a revoked key is refused on the very next call with the API's own text.
 */
export class SdkBackend implements InterlockBackend {
  private readonly client: Interlock;
  private identityPromise: Promise<KeyIdentity> | undefined;
  private readonly baseURL: string;

  constructor(options: SdkBackendOptions) {
    this.baseURL = options.baseURL;
    this.client = new Interlock({
      apiKey: options.apiKey,
      baseURL: options.baseURL,
      timeout: CALL_TIMEOUT_MS,
      fetch: options.fetch,
      defaultHeaders: options.userAgent === undefined ? {} : { 'user-agent': options.userAgent },
    });
  }

  identity(options: CallOptions = {}): Promise<KeyIdentity> {
    // One lookup per process; a failure (say a revoked key) is not remembered.
    this.identityPromise ??= this.call(async () => {
      const whoami = await this.client.whoami({ signal: options.signal });
      return { apiKeyId: whoami.apiKey.id, organisationId: whoami.organisationId };
    });
    return this.identityPromise.catch((error: unknown) => {
      this.identityPromise = undefined;
      throw error;
    });
  }

  createInterrupt(
    params: InterruptCreateParams,
    options: CreateOptions,
  ): Promise<Created<Interrupt>> {
    return this.call(async () => {
      const { data, response } = await this.client.interrupts
        .create(params, { idempotencyKey: options.idempotencyKey, signal: options.signal })
        .withResponse();
      // The service marks the first answer replayed to a repeated Idempotency-Key.
      return { value: data, replayed: response.headers.get('idempotent-replayed') === 'true' };
    });
  }

  getInterrupt(id: string, options: CallOptions = {}): Promise<Interrupt> {
    return this.call(() => this.client.interrupts.get(id, { signal: options.signal }));
  }

  cancelInterrupt(id: string, reason: string, options: CallOptions = {}): Promise<Interrupt> {
    return this.call(() =>
      this.client.interrupts.cancel(id, { reason }, { signal: options.signal }),
    );
  }

  listOwnOpenInterrupts(
    page: { cursor?: string; limit: number },
    options: CallOptions = {},
  ): Promise<InterruptListResponse> {
    return this.call(async () => {
      const listed = await this.client.interrupts.list(
        { status: 'open', openedBy: 'me', limit: page.limit, cursor: page.cursor },
        { signal: options.signal },
      );
      return { interrupts: listed.data, nextCursor: listed.nextCursor };
    });
  }

  startSession(params: SessionStartParams, options: CallOptions = {}): Promise<Session> {
    return this.call(() => this.client.sessions.start(params, { signal: options.signal }));
  }

  appendMessages(
    sessionId: string,
    messages: SessionMessage[],
    options: CallOptions = {},
  ): Promise<{ appended: number }> {
    return this.call(() =>
      this.client.sessions.append(sessionId, messages, { signal: options.signal }),
    );
  }

  endSession(sessionId: string, options: CallOptions = {}): Promise<Session> {
    return this.call(() => this.client.sessions.end(sessionId, { signal: options.signal }));
  }

  /** Runs an SDK call, turning its errors into `InterlockBackendError` with the API's own text. */
  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      throw toBackendError(error, this.baseURL);
    }
  }
}

/** An SDK error as the tools report it: the API's own text, or why it could not be reached. */
export function toBackendError(error: unknown, baseURL: string): unknown {
  if (error instanceof APIUserAbortError) return error;
  if (error instanceof APIConnectionTimeoutError) {
    return new InterlockBackendError(
      `Interlock at ${baseURL} did not answer in time.`,
      { code: 'CONNECTION_TIMEOUT' },
      { cause: error },
    );
  }
  if (error instanceof APIConnectionError) {
    return new InterlockBackendError(
      `Could not reach Interlock at ${baseURL}.`,
      { code: 'CONNECTION_ERROR' },
      { cause: error },
    );
  }
  if (error instanceof APIError) {
    return new InterlockBackendError(
      error.message,
      { status: error.status, code: error.code, requestId: error.requestId },
      { cause: error },
    );
  }
  return error;
}
