import { InProcessNotificationBus } from '../notifications/notification-bus';
import { ApiKeyCache, AUTH_CHANNEL, CachedApiKey } from './api-key-cache';

const entry = (over: Partial<CachedApiKey> = {}): CachedApiKey => ({
  keyHash: 'h1',
  apiKeyId: 'k1',
  organisationId: 'o1',
  name: 'ci',
  expiresAt: null,
  plan: 'free',
  cachedAt: 1_000,
  ...over,
});

class FlakyBus extends InProcessNotificationBus {
  up = true;
  override get healthy() {
    return this.up;
  }
}

describe('ApiKeyCache', () => {
  it('serves a cached key until its TTL', () => {
    const cache = new ApiKeyCache(new InProcessNotificationBus(), 30_000);
    cache.set(entry(), cache.currentGeneration());
    expect(cache.get('h1', 2_000)?.apiKeyId).toBe('k1');
    expect(cache.get('h1', 40_000)).toBeUndefined();
  });

  it('drops a key, or every key of an organisation, when told on the bus', async () => {
    const bus = new InProcessNotificationBus();
    const cache = new ApiKeyCache(bus);
    cache.set(entry(), cache.currentGeneration());
    cache.set(entry({ keyHash: 'h2', apiKeyId: 'k2' }), cache.currentGeneration());
    cache.set(
      entry({ keyHash: 'h3', apiKeyId: 'k3', organisationId: 'o2' }),
      cache.currentGeneration(),
    );
    await bus.publish(AUTH_CHANNEL, 'key:k1');
    expect(cache.get('h1', 1_000)).toBeUndefined();
    expect(cache.get('h2', 1_000)).toBeDefined();
    await bus.publish(AUTH_CHANNEL, 'org:o1');
    expect(cache.get('h2', 1_000)).toBeUndefined();
    expect(cache.get('h3', 1_000)).toBeDefined();
  });

  it('does not cache a lookup that raced an invalidation', async () => {
    const bus = new InProcessNotificationBus();
    const cache = new ApiKeyCache(bus);
    const generation = cache.currentGeneration();
    await bus.publish(AUTH_CHANNEL, 'key:k1'); // the revoke lands while the lookup is in flight
    cache.set(entry(), generation);
    expect(cache.get('h1', 1_000)).toBeUndefined();
  });

  it('is bypassed while the bus is unhealthy', () => {
    const bus = new FlakyBus();
    const cache = new ApiKeyCache(bus);
    cache.set(entry(), cache.currentGeneration());
    bus.up = false;
    expect(cache.get('h1', 1_000)).toBeUndefined();
    cache.set(entry({ keyHash: 'h9' }), cache.currentGeneration());
    bus.up = true;
    expect(cache.get('h9', 1_000)).toBeUndefined();
  });
});
