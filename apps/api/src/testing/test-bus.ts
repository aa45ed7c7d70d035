import { EventEmitter } from 'node:events';
import { NotificationBus } from '../notifications/notification-bus';

/** A bus whose health the test sets, and which resyncs on demand. */
export class TestBus extends NotificationBus {
  isHealthy = true;
  private readonly emitter = new EventEmitter();
  get healthy(): boolean {
    return this.isHealthy;
  }
  async publish(channel: string, payload: string): Promise<void> {
    this.emitter.emit(channel, payload);
  }
  subscribe(channel: string, handler: (payload: string) => void): () => void {
    this.emitter.on(channel, handler);
    return () => this.emitter.off(channel, handler);
  }
  onResync(handler: () => void): () => void {
    this.emitter.on('resync', handler);
    return () => this.emitter.off('resync', handler);
  }
  resync(): void {
    this.emitter.emit('resync');
  }
  async sync(): Promise<void> {
    return undefined;
  }
  async close(): Promise<void> {
    return undefined;
  }
}
