import type { MemberCall } from '../auth/caller';

/**
 * Setting up or changing the organisation's external classifier (SPEC §8d): the input of
 * `ClassificationClassifierService.put`. `timeoutMs` and `enabled` left out keep what is set (or
 * the defaults, when setting up). The REST body (`PutClassifierDto`) stays at the HTTP edge.
 */
export interface PutClassifierCommand extends MemberCall {
  url: string;
  timeoutMs?: number;
  enabled?: boolean;
}
