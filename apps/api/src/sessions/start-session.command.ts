import type { KeyCall } from '../auth/caller';
import type { IdempotentRequest } from '../idempotency/idempotency.service';

/**
 * Start a Live View session (SPEC §5): the one input of `SessionsService.start`, built by the REST
 * controller from its DTO and by the MCP backend from its tool's arguments (each validated at its
 * own edge). Plain values: no HTTP, no decorators.
 */
export interface StartSessionCommand extends KeyCall {
  name: string;
  externalId: string | null;
  metadata: Record<string, unknown> | null;
  /** The request's Idempotency-Key, when it has one (MCP calls do not). */
  idempotency?: IdempotentRequest;
}
