import { SetMetadata } from '@nestjs/common';

export const COSTLY_WRITE = 'interlock:costly-write';

/** The kinds of human write that cost more than a row: each has its own budget per person. */
export type CostlyWriteKind =
  'webhook_test' | 'organisation_create' | 'invitation_create' | 'role_create';

/**
 * A human write that costs more than a row (an outbound request, a new organisation, an email
 * to a stranger…): besides the person's write budget it spends one of its kind's, smaller, per
 * person (`RATE_LIMIT_MEMBER_COSTLY_WRITES` per `…_WINDOW_SECONDS`; issue 34, item 5).
 */
export const CostlyWrite = (kind: CostlyWriteKind) => SetMetadata(COSTLY_WRITE, kind);
