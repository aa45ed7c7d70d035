import type { Logger } from 'pino';
import type { JobWorker } from '../jobs/job-runner';

interface PendingUse {
  organisationId: string;
  usedAt: Date;
}

/** Writes one use (`ApiKeysRepository.recordLastUsed`, which never moves it backwards). */
type WriteLastUse = (organisationId: string, apiKeyId: string, usedAt: Date) => Promise<void>;

/**
 * `lastUsedAt` without a write per request (SPEC §2): uses are noted in memory and written in
 * the background, at most once a minute per key, never on the request's path. The writing is a
 * worker of the job runner (each instance flushes the uses it noted, every `idleMs`), so it
 * stops with the runner and its last flush is drained on shutdown before the database closes.
 */
export class LastUsedRecorder implements JobWorker {
  readonly name = 'api-key-last-used';
  private readonly pending = new Map<string, PendingUse>();
  private readonly lastWritten = new Map<string, number>();
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly write: WriteLastUse,
    private readonly logger: Logger,
    private readonly minGapMs = 55_000,
    readonly idleMs = 5_000,
  ) {}

  /** One round of the runner: writes what is pending; never asks for another round at once. */
  async poll(): Promise<boolean> {
    await this.flush();
    return false;
  }

  /** On shutdown, after the runner's last round: the uses noted since. */
  drain(): Promise<void> {
    return this.flush();
  }

  record(organisationId: string, apiKeyId: string, now = Date.now()): void {
    const written = this.lastWritten.get(apiKeyId);
    if (written !== undefined && now - written < this.minGapMs) return;
    this.pending.set(apiKeyId, { organisationId, usedAt: new Date(now) });
  }

  flush(): Promise<void> {
    if (this.flushing) return this.flushing;
    this.flushing = this.writePending().finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  private async writePending(): Promise<void> {
    const batch = [...this.pending];
    this.pending.clear();
    for (const [apiKeyId, use] of batch) {
      try {
        await this.write(use.organisationId, apiKeyId, use.usedAt);
        this.lastWritten.set(apiKeyId, use.usedAt.getTime());
      } catch (error) {
        this.logger.warn({ err: error, apiKeyId }, 'could not record lastUsedAt');
      }
    }
    const horizon = Date.now() - this.minGapMs;
    for (const [id, at] of this.lastWritten) if (at < horizon) this.lastWritten.delete(id);
  }
}
