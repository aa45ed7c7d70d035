import type { Logger } from 'pino';

/** The `RateLimit-*` fields of a response (IETF draft-ietf-httpapi-ratelimit-headers, draft 6). */
export interface BudgetVerdict {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Seconds until the window ends (and the budget is whole again). */
  readonly resetSeconds: number;
  readonly windowSeconds: number;
}

type Query = (sql: string, params: unknown[]) => Promise<unknown>;

interface OrganisationWindow {
  /** Start of the window, ms since the epoch. */
  window: number;
  /** Requests of this window admitted here and not yet added to the shared count. */
  pending: number;
  /** Requests of this window that are in the shared count (every instance), as last read. */
  shared: number;
}

/** How often an instance adds its counts to the shared ones and reads them back. */
export const BUDGET_SYNC_MS = 250;

/**
 * The per-organisation request budget of API keys (SPEC §8b), with no database work on the
 * request path: each instance counts admissions in memory and, every BUDGET_SYNC_MS, adds them
 * to the organisation's row of the current window in Postgres in one statement for all
 * organisations, reading the totals of every instance back. A request is admitted while
 * `shared + pending < limit`.
 *
 * What holds: one instance never admits more than the limit in a window; all instances together
 * admit at most the limit plus what the others admitted since their last sync (a quarter of a
 * second of their traffic each); refusals are exact in their Retry-After. Windows are fixed
 * (aligned to the epoch on each instance's clock). When Postgres cannot be reached the instance
 * keeps counting on its own — it never refuses more than the shared budget would — and says so
 * in the log.
 */
export class ApiKeyBudget {
  private readonly organisations = new Map<string, OrganisationWindow>();
  private readonly windowMs: number;
  private readonly timer: NodeJS.Timeout | undefined;
  private syncing: Promise<void> | undefined;
  private syncSoon: NodeJS.Timeout | undefined;
  private failing = false;
  private syncs = 0;

  constructor(
    private readonly limit: number,
    private readonly windowSeconds: number,
    private readonly query: Query,
    private readonly logger: Logger,
  ) {
    this.windowMs = windowSeconds * 1000;
    if (limit > 0) {
      this.timer = setInterval(() => void this.sync(), BUDGET_SYNC_MS);
      this.timer.unref();
    }
  }

  /** Admits (and counts) one request of `organisationId`, or says how long to wait. */
  admit(organisationId: string, now = Date.now()): BudgetVerdict | undefined {
    return this.spend(organisationId, 'admit', now);
  }

  /** The verdict `admit` would give, counting nothing (a held wait's `RateLimit-*` fields). */
  peek(organisationId: string, now = Date.now()): BudgetVerdict | undefined {
    return this.spend(organisationId, 'peek', now);
  }

  /**
   * Counts one request of `organisationId` that was already served, even past the budget (a short
   * wait pays at its end, SPEC §8e): it is the next request that is refused.
   */
  charge(organisationId: string, now = Date.now()): void {
    this.spend(organisationId, 'charge', now);
  }

  private spend(
    organisationId: string,
    how: 'admit' | 'peek' | 'charge',
    now: number,
  ): BudgetVerdict | undefined {
    if (this.limit === 0) return undefined;
    const window = now - (now % this.windowMs);
    let entry = this.organisations.get(organisationId);
    if (entry === undefined || entry.window !== window) {
      entry = { window, pending: 0, shared: 0 };
      this.organisations.set(organisationId, entry);
      // First request of the window here: learn the others' count without waiting a full tick.
      this.syncSoon ??= setTimeout(() => {
        this.syncSoon = undefined;
        void this.sync();
      }, 0);
    }
    const used = entry.shared + entry.pending;
    const resetSeconds = Math.max(1, Math.ceil((window + this.windowMs - now) / 1000));
    if (how === 'charge') {
      entry.pending++;
      return undefined;
    }
    if (used >= this.limit) {
      return {
        allowed: false,
        limit: this.limit,
        remaining: 0,
        resetSeconds,
        windowSeconds: this.windowSeconds,
      };
    }
    if (how === 'admit') entry.pending++;
    return {
      allowed: true,
      limit: this.limit,
      remaining: this.limit - used - (how === 'admit' ? 1 : 0),
      resetSeconds,
      windowSeconds: this.windowSeconds,
    };
  }

  /** Adds the pending counts to the shared ones and reads the totals back (one statement). */
  sync(): Promise<void> {
    this.syncing ??= this.write().finally(() => (this.syncing = undefined));
    return this.syncing;
  }

  private async write(): Promise<void> {
    const now = Date.now();
    const ids: string[] = [];
    const windows: string[] = [];
    const counts: number[] = [];
    for (const [id, entry] of this.organisations) {
      if (entry.window + this.windowMs <= now) {
        if (entry.pending === 0) {
          this.organisations.delete(id);
          continue;
        }
      }
      ids.push(id);
      windows.push(new Date(entry.window).toISOString());
      counts.push(entry.pending);
    }
    if (ids.length === 0) return;
    const sent = new Map(ids.map((id, i) => [id, counts[i]]));
    try {
      const rows = (await this.query(
        `INSERT INTO api_key_request_windows AS w (organisation_id, window_start, requests)
         SELECT * FROM unnest($1::uuid[], $2::timestamptz[], $3::bigint[])
         ON CONFLICT (organisation_id, window_start) DO UPDATE SET requests = w.requests + EXCLUDED.requests
         RETURNING organisation_id, window_start, requests`,
        [ids, windows, counts],
      )) as { organisation_id: string; window_start: Date; requests: string }[];
      for (const row of rows) {
        const entry = this.organisations.get(row.organisation_id);
        const added = sent.get(row.organisation_id) ?? 0;
        if (entry === undefined || entry.window !== row.window_start.getTime()) continue;
        entry.pending -= added;
        entry.shared = Number(row.requests);
      }
      for (const [id, entry] of this.organisations) {
        if (entry.window + this.windowMs <= now && entry.pending === 0)
          this.organisations.delete(id);
      }
      if (this.failing) this.logger.info('API key budget: shared counts are back');
      this.failing = false;
      if (++this.syncs % 2400 === 0) {
        await this.query(
          `DELETE FROM api_key_request_windows WHERE window_start < now() - interval '1 day'`,
          [],
        );
      }
    } catch (error) {
      if (!this.failing)
        this.logger.warn(
          { err: error },
          'API key budget: cannot share counts; counting on this instance only',
        );
      this.failing = true;
    }
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.syncSoon) clearTimeout(this.syncSoon);
    await this.sync();
  }
}
