// @interlock/sdk — the public entry. Everything a user imports is re-exported here.
export { Interlock, DEFAULT_BASE_URL, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS } from './lib/client';
export type { ClientOptions, Method, QueryValue, RequestSpec } from './lib/client';
export { APIPromise } from './lib/api-promise';
export type { APIResponse, WithRequestID } from './lib/api-promise';
export type { LogLevel, Logger } from './lib/logging';
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
  RedirectError,
  InternalServerError,
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  WaitTimeoutError,
} from './lib/errors';
export type { ErrorBody } from './lib/errors';
export { CursorPage, PagePromise } from './lib/pagination';
export {
  actionDigest,
  canonicalJson,
  verifyDecisions,
  ActionDigestMismatchError,
} from './lib/action-digest';
export type { AskedAction, VerifyDecisionsOptions } from './lib/action-digest';
export {
  Interrupts,
  DEFAULT_POLL_INTERVAL_MS,
  DEFAULT_WAIT_TIMEOUT_MS,
} from './lib/resources/interrupts';
export type { ReviewLangGraphOptions, WaitForAnswerOptions } from './lib/resources/interrupts';
export { Sessions } from './lib/resources/sessions';
export { requireApproval, ApprovalRejectedError, DeclinedError } from './lib/gate';
export { AnswerDeclinedError, responseSchemaOf } from './lib/ask';
export type { AskOptions, AskSchema } from './lib/ask';
export {
  OPENAI_AGENTS_METADATA_KEY,
  openAIAgentsInterrupt,
  applyOpenAIAgentsDecisions,
  reviewOpenAIAgents,
  openOpenAIAgentsReview,
  resumeOpenAIAgents,
  resumeOpenAIAgentsFromWebhook,
} from './lib/openai-agents';
export type {
  AnsweredOpenAIAgentsInterrupt,
  OpenAIAgentsApprovalItem,
  OpenAIAgentsInterruptOptions,
  OpenAIAgentsWebhookOptions,
  OpenAIAgentsRunState,
  OpenAIAgentsSource,
  ReviewOpenAIAgentsOptions,
} from './lib/openai-agents';
export type { RequireApprovalOptions } from './lib/gate';
export {
  AI_SDK_METADATA_KEY,
  interlockToolApproval,
  pendingAISDKApprovals,
  aiSDKInterrupt,
  aiSDKApprovalDecisions,
  aiSDKApprovalMessage,
  openAISDKReview,
  reviewAISDK,
} from './lib/ai-sdk';
export type {
  AISDKApprovalDecision,
  AISDKApprovalMessage,
  AISDKApprovalSource,
  AISDKApprovalStatus,
  AISDKPendingApproval,
  AISDKToolCall,
  AISDKTools,
  InterlockToolApprovalOptions,
} from './lib/ai-sdk';
export {
  MASTRA_METADATA_KEY,
  mastraInterrupt,
  openMastraReview,
  resumeMastra,
  reviewMastraToolCall,
} from './lib/mastra';
export type { MastraApprovingAgent, MastraToolCallApproval } from './lib/mastra';
export type { BridgeInterruptOptions, BridgeReviewOptions } from './lib/tool-approvals';
export { AuditLog } from './lib/resources/audit-log';
export {
  interruptFromLangGraph,
  interruptsFromLangGraph,
  toLangGraphResume,
  interlockPayload,
  interlockDecisions,
  langGraphReviewId,
  shortenDescription,
  LANGGRAPH_METADATA_KEY,
  MAX_ACTIONS_PER_INTERRUPT,
  MAX_DESCRIPTION_LENGTH,
} from './lib/langgraph';
export type {
  HumanInterrupt,
  HumanResponse,
  InterlockPayload,
  InterlockResume,
  InterruptFromLangGraphOptions,
  LangChainDecision,
  LangChainHITLRequest,
  LangGraphActionRequest,
  LangGraphDecision,
  LangGraphHITLRequest,
  LangGraphInterrupt,
  LangGraphResume,
  LangGraphResumeValue,
  LangGraphReviewConfig,
  ToolApprovalRequest,
} from './lib/langgraph';
export {
  Webhooks,
  resumeSigningSecret,
  WebhookVerificationError,
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
} from './lib/webhooks';
export type {
  WebhookHeaders,
  WebhookVerifyOptions,
  WebhookVerificationErrorCode,
} from './lib/webhooks';
export type * from './lib/types';
export { VERSION } from './lib/version';
