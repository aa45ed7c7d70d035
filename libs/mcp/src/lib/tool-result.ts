import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { InterlockBackendError } from './backend';

/** A successful tool result: the structured value, and the same as JSON text for clients that only show text. */
export function success(value: Record<string, unknown>): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(value, null, 2) }],
    structuredContent: value,
  };
}

/** What to do about an error the API answered, by its code: a model reads this beside the API's text. */
const HINTS: Record<string, string> = {
  MISSING_API_KEY:
    'The Interlock MCP server has no API key. Ask the user to set INTERLOCK_API_KEY (stdio) or the x-api-key header (HTTP).',
  INVALID_API_KEY:
    'Interlock refused the API key (revoked, mistyped or unknown). Ask the user to create a new key in the Interlock dashboard and configure it.',
  API_KEY_EXPIRED:
    'The Interlock API key has expired. Ask the user to create a new key in the Interlock dashboard and configure it.',
  MESSAGES_ALLOWANCE_EXHAUSTED:
    "The organisation cannot open more requests this month. Do not retry; tell the user (an owner can move to the Pro plan) and don't carry out the actions.",
  AGENT_HOURS_ALLOWANCE_EXHAUSTED:
    'The organisation has no agent hours left this month, so no session can start. Carry on without a session and tell the user.',
  ACTIVE_SESSIONS_EXHAUSTED:
    'The organisation has as many sessions open as its plan allows. End a session you no longer use (end_session), or carry on without one and tell the user.',
  SESSION_STORAGE_EXHAUSTED:
    'The organisation has used its storage for session messages, so this log was not kept. Carry on without logging to the session and tell the user.',
  VALIDATION_FAILED: 'Fix the argument the message names and call the tool again.',
  NOT_FOUND:
    'No such id in this organisation: check the id you passed (copy it from the earlier tool result).',
  CONFLICT: 'This conflicts with the current state (for example the session has already ended).',
  RATE_LIMITED: 'Too many requests: wait a minute, then try again.',
  SERVICE_UNAVAILABLE: 'Interlock is temporarily unavailable: try again shortly.',
  CONNECTION_ERROR:
    'Check that Interlock is running and that INTERLOCK_BASE_URL points at it, then try again.',
  CONNECTION_TIMEOUT: 'Try again shortly.',
};

/**
 * A tool error (`isError: true`) the model can act on. The first text is the API's message
 * exactly as the API sent it (`Invalid API key.`, the 402 allowance text…); a second says what
 * to do, with the code, the status and, when an interrupt was already opened, its id.
 */
export function failure(error: unknown, context: { interruptId?: string } = {}): CallToolResult {
  if (!(error instanceof InterlockBackendError)) {
    return {
      isError: true,
      content: [{ type: 'text', text: 'Internal error in the Interlock MCP server.' }],
    };
  }
  const facts = [
    error.code,
    error.status === undefined ? undefined : `HTTP ${error.status}`,
    error.requestId && `request ${error.requestId}`,
  ]
    .filter((f) => f !== undefined && f !== '')
    .join(', ');
  const hint =
    (error.code !== undefined ? HINTS[error.code] : undefined) ?? 'Interlock refused the call.';
  const opened =
    context.interruptId === undefined
      ? ''
      : ` The request was opened before this happened (interruptId "${context.interruptId}"); once the problem is fixed, get_decision can pick it up.`;
  return {
    isError: true,
    content: [
      { type: 'text', text: error.message },
      { type: 'text', text: `${hint}${opened}${facts === '' ? '' : ` (${facts})`}` },
    ],
  };
}
