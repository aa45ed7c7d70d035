import type { IdempotentRequest } from '../idempotency/idempotency.service';
import type { MessageRole } from './session-message.entity';

/**
 * Append messages to an active session (SPEC §5): the one input of `SessionsService.append`, built
 * by the REST controller and by the MCP backend alike (each validated at its own edge).
 */
export interface AppendSessionMessagesCommand {
  organisationId: string;
  sessionId: string;
  messages: readonly { role: MessageRole; content: string }[];
  /** The request's Idempotency-Key, when it has one (MCP calls do not). */
  idempotency?: IdempotentRequest;
}
