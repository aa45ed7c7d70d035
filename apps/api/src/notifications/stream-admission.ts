import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '@interlock/domain';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig, StreamLimitsConfig } from '../config/app-config';

/** Who holds a stream: the person (every organisation together) and the organisation it is for. */
export interface StreamHolder {
  readonly memberId: string;
  readonly organisationId: string;
}

/** Seconds a client refused for its member's or organisation's cap waits: about a heartbeat. */
export const STREAM_CAP_RETRY_AFTER_SECONDS = 15;
/** Seconds a client refused for the instance's cap waits (a load balancer may send it elsewhere). */
export const INSTANCE_CAP_RETRY_AFTER_SECONDS = 5;

export function memberStreamCapMessage(cap: number): string {
  return `Too many open streams: one person may hold ${cap} at once. Close one, then retry.`;
}

export function organisationStreamCapMessage(cap: number): string {
  return `Too many open streams: this organisation's members may hold ${cap} at once. Close one, then retry.`;
}

export const INSTANCE_STREAM_CAP_MESSAGE =
  'This instance holds as many open streams as it can. Reconnect shortly.';

/**
 * The caps on open event streams (issue 34, SPEC §8b): per person, per organisation and per
 * instance, both feeds (GET /api/events, the Live View) together, counted in this process — an
 * instance never holds more than its caps whatever the other instances hold. A slot is taken
 * before the stream's first query and given back exactly once, when the stream ends or never
 * opens. Past a person's or organisation's cap: 429 `RATE_LIMITED` with `Retry-After`; past the
 * instance's: 503 `SERVICE_UNAVAILABLE` with `Retry-After`. A cap of 0 is off.
 */
@Injectable()
export class StreamAdmission {
  private readonly byMember = new Map<string, number>();
  private readonly byOrganisation = new Map<string, number>();
  private total = 0;
  private readonly limits: StreamLimitsConfig;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.limits = config.streams;
  }

  /** Takes a slot for `holder`, or throws the refusal; returns the release (idempotent). */
  admit(holder: StreamHolder): () => void {
    const { perMember, perOrganisation, perInstance } = this.limits;
    if (perInstance > 0 && this.total >= perInstance) {
      throw new DomainError('SERVICE_UNAVAILABLE', INSTANCE_STREAM_CAP_MESSAGE, {
        'retry-after': String(INSTANCE_CAP_RETRY_AFTER_SECONDS),
      });
    }
    if (perMember > 0 && (this.byMember.get(holder.memberId) ?? 0) >= perMember) {
      throw new DomainError('RATE_LIMITED', memberStreamCapMessage(perMember), {
        'retry-after': String(STREAM_CAP_RETRY_AFTER_SECONDS),
      });
    }
    if (
      perOrganisation > 0 &&
      (this.byOrganisation.get(holder.organisationId) ?? 0) >= perOrganisation
    ) {
      throw new DomainError('RATE_LIMITED', organisationStreamCapMessage(perOrganisation), {
        'retry-after': String(STREAM_CAP_RETRY_AFTER_SECONDS),
      });
    }
    this.total++;
    bump(this.byMember, holder.memberId, 1);
    bump(this.byOrganisation, holder.organisationId, 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total--;
      bump(this.byMember, holder.memberId, -1);
      bump(this.byOrganisation, holder.organisationId, -1);
    };
  }

  /** Streams held now (all, or one person's, or one organisation's). */
  held(of?: { memberId?: string; organisationId?: string }): number {
    if (of?.memberId !== undefined) return this.byMember.get(of.memberId) ?? 0;
    if (of?.organisationId !== undefined) return this.byOrganisation.get(of.organisationId) ?? 0;
    return this.total;
  }
}

function bump(counts: Map<string, number>, key: string, by: number): void {
  const n = (counts.get(key) ?? 0) + by;
  if (n <= 0) counts.delete(key);
  else counts.set(key, n);
}
