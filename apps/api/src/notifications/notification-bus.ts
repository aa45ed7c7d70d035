import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { Client } from 'pg';
import type { Logger } from 'pino';
import { busProbeChannel, type BusProbeRecord } from '../metrics/instrumentation-channels';

export type NotificationHandler = (payload: string) => void;

/**
 * Messages between instances of the service: Postgres LISTEN/NOTIFY on an external database,
 * an in-process emitter on the embedded one (where NOTIFY does not cross connections, and
 * there is only ever one process).
 */
export abstract class NotificationBus {
  /**
   * True while this instance may trust what it cached from notifications: its listener is
   * connected and has proved, within the last lease, that it receives (see PostgresNotificationBus).
   */
  abstract get healthy(): boolean;
  /** Sends `payload` to every subscriber of `channel` on every instance, this one included. */
  abstract publish(channel: string, payload: string): Promise<void>;
  /** `publish` of each payload, in order (a bus may send them in one round trip). */
  async publishAll(channel: string, payloads: readonly string[]): Promise<void> {
    for (const payload of payloads) await this.publish(channel, payload);
  }
  abstract subscribe(channel: string, handler: NotificationHandler): () => void;
  /** Called whenever the bus becomes healthy again after notifications may have been missed. */
  abstract onResync(handler: () => void): () => void;
  /**
   * Resolves once every live instance has handled every notification committed before the
   * call — or can no longer trust what it cached. Call it after committing a change that
   * instances cache (a revoked key, a plan), before answering: afterwards no instance acts on
   * the old state.
   */
  abstract sync(): Promise<void>;
  abstract close(): Promise<void>;
}

export class InProcessNotificationBus extends NotificationBus {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  get healthy(): boolean {
    return true;
  }
  async publish(channel: string, payload: string): Promise<void> {
    this.emitter.emit(channel, payload);
  }
  subscribe(channel: string, handler: NotificationHandler): () => void {
    this.emitter.on(channel, handler);
    return () => this.emitter.off(channel, handler);
  }
  onResync(): () => void {
    return () => undefined;
  }
  /** One process, and handlers run as a notification is published: nothing to wait for. */
  async sync(): Promise<void> {
    return undefined;
  }
  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}

const CHANNEL_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
const PROBE_CHANNEL = 'interlock_bus_probe';
const BARRIER_CHANNEL = 'interlock_bus_barrier';
const ACK_CHANNEL = 'interlock_bus_ack';
/** Extra wait on top of a lease before `sync` counts a silent instance as fenced. */
const SYNC_SAFETY_MS = 250;
/** Registrations older than this are deleted (instances that died without signing off). */
const FORGET_AFTER = '1 hour';

export interface BusTiming {
  /** How often an instance renews its registration and proves its listener receives. */
  readonly heartbeatMs: number;
  /** How long one proof lets an instance trust its caches, and how long `sync` waits at most. */
  readonly leaseMs: number;
}

export const DEFAULT_BUS_TIMING: BusTiming = { heartbeatMs: 1_000, leaseMs: 3_000 };

/** What to tell an operator whose listener does not hear its own probes. */
const DEAF_LISTENER_HINT =
  'LISTEN needs a direct connection to Postgres: set DATABASE_DIRECT_URL to Postgres itself, not to a ' +
  'transaction-pooling proxy such as PgBouncer in transaction mode (/health/ready answers 503 until the listener receives)';

type Query = (sql: string, params: unknown[]) => Promise<unknown>;

/**
 * LISTEN on one dedicated connection (a direct one: a transaction-pooling PgBouncer cannot
 * carry LISTEN), reconnecting with backoff. Heartbeats go through `control` (the instance's
 * control connections, never the pool a herd of requests can fill: a probe that waited there for
 * a connection looked like a deaf listener — a reconnect, every wait woken, the caches bypassed,
 * 469 × 503 in one run of the waiters bench), one at a time; acknowledgements on the listener's
 * own connection, which has just received the barrier and carries nothing else; a change's
 * NOTIFY and `sync`'s barrier through `query` (the pool, as the change itself).
 *
 * Exact invalidation ("revoked on every instance at once"), without a database read per request:
 * - Every `heartbeatMs` an instance upserts its row in `service_instances` and, in the same
 *   statement, NOTIFYs a probe to itself. When the probe comes back, the listener is proved to
 *   receive, and the instance trusts its caches until `sent + leaseMs` (`healthy`). A probe
 *   outstanding for a lease marks the connection lost.
 * - `sync()` (after a change commits) NOTIFYs a barrier token and waits until every instance
 *   whose heartbeat is within the lease has acknowledged it. Postgres delivers notifications to
 *   a listener in commit order, so an instance that acknowledges the barrier has handled the
 *   change's own notification first (its cache entry is gone).
 * - An instance that does not acknowledge has, by the same order, proved nothing committed after
 *   the change, so its trust ends within a lease of the change: `sync` waits at most
 *   `leaseMs` (+ a margin), and then no instance acts on the old state either way.
 */
export class PostgresNotificationBus extends NotificationBus {
  readonly instanceId = randomUUID();
  private readonly emitter = new EventEmitter().setMaxListeners(0);
  private readonly resync = new EventEmitter().setMaxListeners(0);
  private readonly channels = new Set<string>();
  private client: Client | undefined;
  private connected = false;
  private closed = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private heartbeatCount = 0;
  private heartbeatFailing = false;
  /** Set while a heartbeat's statement is under way: a beat due meanwhile is skipped. */
  private beating = false;
  /** Set while the listener has not received its own probe since it (re)connected. */
  private deaf = false;
  /** LISTEN commands and acknowledgements, one after another on the listener's connection. */
  private listening: Promise<unknown> = Promise.resolve();
  /** performance.now() until which this instance may trust its caches. */
  private trustUntil = 0;
  /**
   * Probes sent and not yet back: token → performance.now() when sent, and when its statement
   * was answered (committed), once it has been.
   */
  private readonly probes = new Map<string, { sentAt: number; committedAt?: number }>();
  private readonly trustWaiters = new Set<() => void>();
  /** Barriers this instance is waiting on: token → instances that acknowledged, and a wake-up. */
  private readonly barriers = new Map<string, { acked: Set<string>; wake: () => void }>();

  constructor(
    private readonly url: string,
    private readonly logger: Logger,
    private readonly query: Query,
    private readonly timing: BusTiming = DEFAULT_BUS_TIMING,
    private readonly control: Query = query,
  ) {
    super();
  }

  get healthy(): boolean {
    return this.connected && performance.now() < this.trustUntil;
  }

  /**
   * Connects, registers, and waits (at most a lease) for the first proof that it receives. A
   * listener that hears nothing by then is reported (it is most often one connected through a
   * transaction pooler) and keeps trying; the instance is not ready meanwhile.
   */
  async start(): Promise<void> {
    await this.connect(0);
    const trusted = new Promise<void>((resolve) => this.trustWaiters.add(resolve));
    await this.heartbeat();
    await Promise.race([trusted, sleep(this.timing.leaseMs)]);
    if (!this.healthy) {
      this.deaf = true;
      this.logger.error(
        { setting: 'DATABASE_DIRECT_URL' },
        `the notification listener did not receive its own probe within ${this.timing.leaseMs} ms. ${DEAF_LISTENER_HINT}`,
      );
    }
    // In the loop's check phase, after the poll phase has handled what the listener's socket
    // holds: a loop late by a lease (a starved process) reads its probes before judging them.
    this.heartbeatTimer = setInterval(
      () => setImmediate(() => void this.heartbeat()),
      this.timing.heartbeatMs,
    );
    this.heartbeatTimer.unref();
  }

  /**
   * One beat: the registration renewed and a probe sent, unless the last beat's statement is still
   * under way (beats never queue up behind one another for the control connections). A listener
   * is deaf when a probe its statement committed a lease ago has not come back — counted from the
   * commit, not from the send: a statement slow to commit (a loaded database) lets the trust lapse
   * (the caches are bypassed meanwhile) but is no reason to reconnect and wake every wait.
   */
  private async heartbeat(): Promise<void> {
    const client = this.client;
    if (client === undefined || this.beating) return;
    const now = performance.now();
    for (const { committedAt } of this.probes.values()) {
      if (committedAt !== undefined && now - committedAt > this.timing.leaseMs) {
        this.deaf = true;
        this.logger.warn(
          { setting: 'DATABASE_DIRECT_URL' },
          `the notification listener did not receive its own probe within ${this.timing.leaseMs} ms: reconnecting. ${DEAF_LISTENER_HINT}`,
        );
        this.lost(client, new Error('the notification probe did not come back'));
        return;
      }
    }
    const token = randomUUID();
    const probe: { sentAt: number; committedAt?: number } = { sentAt: now };
    this.probes.set(token, probe);
    this.beating = true;
    try {
      await this.control(
        `WITH beat AS (
           INSERT INTO service_instances (id, heartbeat_at) VALUES ($1, now())
           ON CONFLICT (id) DO UPDATE SET heartbeat_at = now()
           RETURNING id)
         SELECT pg_notify($2, $3) FROM beat`,
        [this.instanceId, PROBE_CHANNEL, `${this.instanceId}:${token}`],
      );
      probe.committedAt = performance.now();
      if (++this.heartbeatCount % 600 === 0) {
        await this.control(
          `DELETE FROM service_instances WHERE heartbeat_at < now() - interval '${FORGET_AFTER}'`,
          [],
        );
      }
      if (this.heartbeatFailing) this.logger.info('heartbeat recovered');
      this.heartbeatFailing = false;
    } catch (error) {
      this.probes.delete(token);
      if (!this.heartbeatFailing)
        this.logger.warn({ err: error }, 'heartbeat failed: caches are bypassed until it recovers');
      this.heartbeatFailing = true;
    } finally {
      this.beating = false;
    }
  }

  private onNotification(channel: string, payload: string): void {
    switch (channel) {
      case PROBE_CHANNEL: {
        const [instance, token] = payload.split(':');
        const sentAt = instance === this.instanceId ? this.probes.get(token)?.sentAt : undefined;
        if (sentAt === undefined) return;
        if (busProbeChannel.hasSubscribers) {
          busProbeChannel.publish({
            roundTripMs: performance.now() - sentAt,
          } satisfies BusProbeRecord);
        }
        // Notifications arrive in commit order: older probes are proved too.
        for (const [t, p] of this.probes) if (p.sentAt <= sentAt) this.probes.delete(t);
        this.trustUntil = Math.max(this.trustUntil, sentAt + this.timing.leaseMs);
        if (this.deaf) this.logger.info('the notification listener receives its probes again');
        this.deaf = false;
        for (const wake of this.trustWaiters) wake();
        this.trustWaiters.clear();
        return;
      }
      case BARRIER_CHANNEL: {
        // Everything committed before the barrier has been handled (handlers run synchronously,
        // in order): say so, on the connection that received it — open, and idle but for the
        // rare LISTEN, so the answer waits for no pool (on the control connections it queued
        // behind heartbeats under load, and a revoke waited out the lease: 4.7 s).
        const client = this.client;
        if (client === undefined) return;
        this.listening = this.listening
          .then(() =>
            client.query('SELECT pg_notify($1, $2)', [
              ACK_CHANNEL,
              `${payload}:${this.instanceId}`,
            ]),
          )
          .catch((error: unknown) =>
            this.logger.warn({ err: error }, 'could not acknowledge a barrier'),
          );
        return;
      }
      case ACK_CHANNEL: {
        const [token, instance] = payload.split(':');
        const barrier = this.barriers.get(token);
        if (barrier !== undefined && instance !== undefined) {
          barrier.acked.add(instance);
          barrier.wake();
        }
        return;
      }
      default:
        this.emitter.emit(channel, payload);
    }
  }

  async sync(): Promise<void> {
    const deadline = performance.now() + this.timing.leaseMs + SYNC_SAFETY_MS;
    const token = randomUUID();
    const barrier = { acked: new Set<string>(), wake: () => undefined as void };
    this.barriers.set(token, barrier);
    let missing: string[] = [];
    try {
      await this.query('SELECT pg_notify($1, $2)', [BARRIER_CHANNEL, token]);
      const live = (await this.query(
        `SELECT id FROM service_instances WHERE heartbeat_at > now() - make_interval(secs => $1)`,
        [this.timing.leaseMs / 1000],
      )) as { id: string }[];
      for (;;) {
        missing = live.map((r) => r.id).filter((id) => !barrier.acked.has(id));
        const left = deadline - performance.now();
        if (missing.length === 0 || left <= 0) break;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          barrier.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    } catch (error) {
      // Without the registry or the barrier, wait out a lease: every instance that has not
      // handled the change has stopped trusting its caches by then.
      this.logger.warn({ err: error }, 'sync could not ask the instances; waiting out the lease');
      await sleep(deadline - performance.now());
      return;
    } finally {
      this.barriers.delete(token);
    }
    if (missing.length > 0) {
      this.logger.warn(
        { instances: missing },
        'instances did not acknowledge a change within a lease; their caches have lapsed',
      );
    }
  }

  private async connect(attempt: number): Promise<void> {
    if (this.closed) return;
    const client = new Client({
      connectionString: this.url,
      application_name: 'interlock-listener',
      keepAlive: true,
    });
    client.on('notification', (msg) => {
      if (msg.payload !== undefined) this.onNotification(msg.channel, msg.payload);
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, undefined));
    try {
      await client.connect();
      this.listening = Promise.resolve();
      for (const channel of [PROBE_CHANNEL, BARRIER_CHANNEL, ACK_CHANNEL, ...this.channels]) {
        await client.query(`LISTEN "${channel}"`);
      }
      this.client = client;
      this.connected = true;
      if (attempt > 0) this.logger.info('notification listener reconnected');
      this.resync.emit('resync');
    } catch (error) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      this.logger.warn({ err: error, attempt }, 'notification listener cannot connect');
      this.scheduleReconnect(attempt + 1);
    }
  }

  private lost(client: Client, error: unknown): void {
    if (this.client !== client || client === undefined || this.closed) return;
    this.client = undefined;
    this.connected = false;
    this.trustUntil = 0;
    this.probes.clear();
    this.logger.warn({ err: error }, 'notification listener lost its connection');
    client.removeAllListeners();
    client.on('error', () => undefined);
    void client.end().catch(() => undefined);
    this.scheduleReconnect(1);
  }

  private scheduleReconnect(attempt: number): void {
    if (this.closed || this.retryTimer) return;
    const delay = Math.min(5_000, 100 * 2 ** Math.min(attempt, 6));
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.connect(attempt);
    }, delay);
    this.retryTimer.unref();
  }

  async publish(channel: string, payload: string): Promise<void> {
    await this.query('SELECT pg_notify($1, $2)', [channel, payload]);
  }

  /** One statement for them all (a batch of expiries settles hundreds of interrupts at once). */
  override async publishAll(channel: string, payloads: readonly string[]): Promise<void> {
    if (payloads.length === 0) return;
    await this.query(
      'SELECT pg_notify($1, p) FROM unnest($2::text[]) WITH ORDINALITY AS n(p, i) ORDER BY i',
      [channel, payloads],
    );
  }

  subscribe(channel: string, handler: NotificationHandler): () => void {
    if (!CHANNEL_NAME.test(channel)) throw new Error(`Invalid channel name ${channel}`);
    if (!this.channels.has(channel)) {
      this.channels.add(channel);
      const client = this.client;
      if (client !== undefined) {
        // One command at a time on the connection (pg queues them, but will stop doing so).
        this.listening = this.listening
          .then(() => client.query(`LISTEN "${channel}"`))
          .catch((error: unknown) => this.lost(client, error));
      }
    }
    this.emitter.on(channel, handler);
    return () => this.emitter.off(channel, handler);
  }

  onResync(handler: () => void): () => void {
    this.resync.on('resync', handler);
    return () => this.resync.off('resync', handler);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    this.connected = false;
    this.trustUntil = 0;
    for (const barrier of this.barriers.values()) barrier.wake();
    // Signing off lets a sync elsewhere stop waiting for this instance at once.
    await this.query('DELETE FROM service_instances WHERE id = $1', [this.instanceId]).catch(
      () => undefined,
    );
    const client = this.client;
    this.client = undefined;
    if (client) {
      client.removeAllListeners();
      client.on('error', () => undefined);
      await client.end().catch(() => undefined);
    }
    this.emitter.removeAllListeners();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}
