import { type HttpResponse, nodeResponse } from '../http/platform';
import type { IdempotentResult } from './idempotency.service';

/** Marks a replayed response (`Idempotent-Replayed: true`) and returns its body. */
export function markReplay<T>(res: HttpResponse, result: IdempotentResult<T>): T {
  if (result.replayed) nodeResponse(res).setHeader('idempotent-replayed', 'true');
  return result.value;
}
