import type { Response } from 'express';
import type { IdempotentResult } from './idempotency.service';

/** Marks a replayed response (`Idempotent-Replayed: true`) and returns its body. */
export function markReplay<T>(res: Response, result: IdempotentResult<T>): T {
  if (result.replayed) res.setHeader('idempotent-replayed', 'true');
  return result.value;
}
