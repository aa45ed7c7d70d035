import type {
  Interrupt,
  InterruptCreateParams,
  InterruptListResponse,
  Session,
  SessionMessage,
  SessionStartParams,
} from '@interlock/sdk';

export interface CallOptions {
  /** Aborts the call: the MCP request was cancelled or its connection closed. */
  signal?: AbortSignal;
}

export interface CreateOptions extends CallOptions {
  /** Sent as `Idempotency-Key`: the same key and body within 24 hours replays the first answer. */
  idempotencyKey: string;
}

/** A created resource, and whether it is the first answer to an earlier identical request. */
export interface Created<T> {
  value: T;
  replayed: boolean;
}

/** The key the server acts as: every call is made with it, for its organisation. */
export interface KeyIdentity {
  apiKeyId: string;
  organisationId: string;
}

/**
 * What the MCP tools need of Interlock. Two implementations: `SdkBackend` (the stdio server,
 * over HTTP with `@interlock/sdk`) and the API's own, which calls the service's code in process
 * for the key that authenticated the `/mcp` request. Both throw `InterlockBackendError` with the
 * API's exact message for anything the API refuses.
 */
export interface InterlockBackend {
  identity(options?: CallOptions): Promise<KeyIdentity>;
  createInterrupt(
    params: InterruptCreateParams,
    options: CreateOptions,
  ): Promise<Created<Interrupt>>;
  getInterrupt(id: string, options?: CallOptions): Promise<Interrupt>;
  /** Withdraws an open interrupt (`POST /api/interrupts/{id}/cancel`); 409 when it is no longer open. */
  cancelInterrupt(id: string, reason: string, options?: CallOptions): Promise<Interrupt>;
  /** A page of the open interrupts this key opened, newest first (`GET /api/interrupts?status=open&openedBy=me`). */
  listOwnOpenInterrupts(
    page: { cursor?: string; limit: number },
    options?: CallOptions,
  ): Promise<InterruptListResponse>;
  startSession(params: SessionStartParams, options?: CallOptions): Promise<Session>;
  appendMessages(
    sessionId: string,
    messages: SessionMessage[],
    options?: CallOptions,
  ): Promise<{ appended: number }>;
  endSession(sessionId: string, options?: CallOptions): Promise<Session>;
}

export interface BackendErrorDetails {
  /** The HTTP status the API answered (undefined when it could not be reached). */
  status?: number;
  /** The API's stable error code (`INVALID_API_KEY`, `MESSAGES_ALLOWANCE_EXHAUSTED`…). */
  code?: string;
  requestId?: string;
}

/** The API refused a call, or could not be reached. `message` is the API's text, unchanged. */
export class InterlockBackendError extends Error {
  readonly status: number | undefined;
  readonly code: string | undefined;
  readonly requestId: string | undefined;

  constructor(message: string, details: BackendErrorDetails = {}, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'InterlockBackendError';
    this.status = details.status;
    this.code = details.code;
    this.requestId = details.requestId;
  }
}
