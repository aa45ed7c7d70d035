// @interlock/sdk — the public entry. Everything a user imports is re-exported here.
export { Interlock, DEFAULT_BASE_URL, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS } from './lib/client';
export type { ClientOptions, QueryValue, RequestSpec } from './lib/client';
export type { Fetch, RequestOptions } from './lib/request-options';
export {
  InterlockError,
  APIError,
  BadRequestError,
  AuthenticationError,
  PaymentRequiredError,
  PlanRequiredError,
  PermissionDeniedError,
  NotFoundError,
  ConflictError,
  UnprocessableEntityError,
  RateLimitError,
  InternalServerError,
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  WaitTimeoutError,
} from './lib/errors';
export type { ErrorBody } from './lib/errors';
export { CursorPage, PagePromise } from './lib/pagination';
export { Interrupts, DEFAULT_POLL_INTERVAL_MS, DEFAULT_WAIT_TIMEOUT_MS } from './lib/resources/interrupts';
export type { WaitForAnswerOptions } from './lib/resources/interrupts';
export { Sessions } from './lib/resources/sessions';
export { AuditLog } from './lib/resources/audit-log';
export { interruptFromLangGraph, toLangGraphResume, LANGGRAPH_METADATA_KEY } from './lib/langgraph';
export type {
  InterruptFromLangGraphOptions,
  LangGraphActionRequest,
  LangGraphDecision,
  LangGraphHITLRequest,
  LangGraphResume,
  LangGraphReviewConfig,
} from './lib/langgraph';
export type * from './lib/types';
export { VERSION } from './lib/version';
