/** SPEC §8e: a deadline is at most 30 days away, whatever an organisation sets. */
export const MAX_TIMEOUT_SECONDS = 2_592_000;

/**
 * An organisation's bounds on interrupt deadlines (SPEC §8e), as Settings shows and changes them:
 * the deadline an interrupt gets when its agent sets none (null: none), the longest one an agent
 * or a member may set, and whether an agent may ask for approval at the deadline.
 */
export interface InterruptDeadlineSettings {
  defaultTimeoutSeconds: number | null;
  maxTimeoutSeconds: number;
  approveOnTimeoutAllowed: boolean;
}
