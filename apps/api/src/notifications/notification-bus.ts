import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { Client } from 'pg';
import type { Logger } from 'pino';

export type NotificationHandler = (payload: string) => void;

/**
 * Messages between instances of the service: Postgres LISTEN/NOTIFY on an external database,
 * an in-process emitter on the embedded one (where NOTIFY does not cross connections, and
 * there is only ever one process).
 */
export abstract class NotificationBus {
  /** False while notifications may be missed (the listener is reconnecting). */
  abstract get healthy(): boolean;
  /** Sends `payload` to every subscriber of `channel` on every instance, this one included. */
  abstract publish(channel: string, payload: string): Promise<void>;
  abstract subscribe(channel: string, handler: NotificationHandler): () => void;
  /** Called whenever the bus becomes healthy again after notifications may have been missed. */
  abstract onResync(handler: () => void): () => void;
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
  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}

const CHANNEL_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** How often the listener proves it still receives, and how long a proof may take. */
const PROBE_EVERY_MS = 5_000;
const PROBE_TIMEOUT_MS = 3_000;
const PROBE_CHANNEL = 'interlock_bus_probe';

/**
 * LISTEN on one dedicated connection, reconnecting with backoff. While it is down the bus is
 * unhealthy, and after each reconnect subscribers are told to resynchronise (drop caches),
 * since notifications sent meanwhile are lost. A half-open connection raises no error, so the
 * listener also sends itself a probe every few seconds: one that does not come back marks the
 * bus unhealthy and reconnects.
 */
export class PostgresNotificationBus extends NotificationBus {
  private readonly emitter = new EventEmitter().setMaxListeners(0);
  private readonly resync = new EventEmitter().setMaxListeners(0);
  private readonly channels = new Set<string>();
  private client: Client | undefined;
  private connected = false;
  private closed = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private probeTimer: NodeJS.Timeout | undefined;
  private pendingProbe: { token: string; timer: NodeJS.Timeout } | undefined;

  constructor(
    private readonly url: string,
    private readonly logger: Logger,
    private readonly publishQuery: (sql: string, params: unknown[]) => Promise<unknown>,
  ) {
    super();
  }

  get healthy(): boolean {
    return this.connected;
  }

  async start(): Promise<void> {
    await this.connect(0);
    this.probeTimer = setInterval(() => void this.probe(), PROBE_EVERY_MS);
    this.probeTimer.unref();
  }

  private async probe(): Promise<void> {
    const client = this.client;
    if (client === undefined || this.pendingProbe !== undefined) return;
    const token = randomUUID();
    const timer = setTimeout(() => {
      this.pendingProbe = undefined;
      this.lost(client, new Error('the notification probe did not come back'));
    }, PROBE_TIMEOUT_MS);
    timer.unref();
    this.pendingProbe = { token, timer };
    await this.publishQuery('SELECT pg_notify($1, $2)', [PROBE_CHANNEL, token]).catch(() => undefined);
  }

  private async connect(attempt: number): Promise<void> {
    if (this.closed) return;
    const client = new Client({ connectionString: this.url, application_name: 'interlock-listener', keepAlive: true });
    client.on('notification', (msg) => {
      if (msg.channel === PROBE_CHANNEL) {
        const pending = this.pendingProbe;
        if (pending !== undefined && msg.payload === pending.token) {
          clearTimeout(pending.timer);
          this.pendingProbe = undefined;
        }
        return;
      }
      if (msg.payload !== undefined) this.emitter.emit(msg.channel, msg.payload);
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, undefined));
    try {
      await client.connect();
      for (const channel of [PROBE_CHANNEL, ...this.channels]) await client.query(`LISTEN "${channel}"`);
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
    if (this.client !== client || this.closed) return;
    this.client = undefined;
    this.connected = false;
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
    await this.publishQuery('SELECT pg_notify($1, $2)', [channel, payload]);
  }

  subscribe(channel: string, handler: NotificationHandler): () => void {
    if (!CHANNEL_NAME.test(channel)) throw new Error(`Invalid channel name ${channel}`);
    if (!this.channels.has(channel)) {
      this.channels.add(channel);
      void this.client?.query(`LISTEN "${channel}"`).catch((error: unknown) => this.lost(this.client as Client, error));
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
    if (this.probeTimer) clearInterval(this.probeTimer);
    if (this.pendingProbe) clearTimeout(this.pendingProbe.timer);
    this.connected = false;
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
