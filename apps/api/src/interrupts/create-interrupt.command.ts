import type { KeyCall } from '../auth/caller';
import type { IdempotentRequest } from '../idempotency/idempotency.service';
import type { Decision } from './interrupt-decision.entity';
import type { OnTimeout, Priority } from './interrupt.entity';

/** One action the agent wants reviewed, as the agent gave it (the service fills in the rest). */
export interface NewActionRequest {
  name: string;
  args?: Record<string, unknown>;
  description?: string;
  allowedDecisions?: Decision[];
  requiredApprovals?: number;
  /** The team whose members alone may decide it: by id or by name (exactly one). */
  approverTeam?: { teamId?: string; teamName?: string };
  responseSchema?: Record<string, unknown>;
}

/** The interrupt an agent opens, as it gave it (SPEC §5). */
export interface NewInterrupt {
  title: string;
  actionRequests: NewActionRequest[];
  description?: string;
  externalId?: string;
  sessionId?: string | null;
  metadata?: Record<string, unknown>;
  timeoutSeconds?: number;
  onTimeout?: OnTimeout;
  /** Where to POST the result when the interrupt leaves open (SPEC §8e). */
  resumeUrl?: string;
  /** How urgent it is (default normal). */
  priority?: Priority;
  /** Whom to assign it to as it opens: exactly one of the four (the DTO checks it). */
  assignTo?: NewAssignee;
  /** The agent's labels (bounded and checked by the DTO; repeated ones count once). */
  labels?: string[];
}

/** An assignee named at creation (SPEC §8e): a member by id or email, a team by id or name. */
export interface NewAssignee {
  memberId?: string;
  email?: string;
  teamId?: string;
  teamName?: string;
}

/**
 * Open an interrupt (SPEC §5): the one input of `InterruptsService.create`, built by the REST
 * controller and by the MCP backend alike from the body each validated at its own edge (the
 * validated `CreateInterruptDto` is a `NewInterrupt`; the service never sees the DTO class).
 */
export interface CreateInterruptCommand extends KeyCall {
  interrupt: NewInterrupt;
  /** The request's Idempotency-Key (MCP: the tool call's), when it has one. */
  idempotency?: IdempotentRequest;
  /**
   * The key the request was made with: a resumeUrl's signing secret is derived from it
   * (`resumeSigningSecret`, SPEC §8e). Without it a resumeUrl is refused.
   */
  apiKey?: string;
}
