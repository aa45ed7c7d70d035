import { InProcessNotificationBus } from '../notifications/notification-bus';
import { createHash } from 'node:crypto';
import { ApiKeyCache, AUTH_CHANNEL, CachedApiKey, presentedKeyDigest } from './api-key-cache';

const entry = (over: Partial<CachedApiKey> = {}): CachedApiKey => {
  const key = {
    keyHash: 'h1',
    apiKeyId: 'k1',
    organisationId: 'o1',
    name: 'ci',
    expiresAt: null,
    plan: 'free' as const,
    cachedAt: 1_000,
    ...over,
  };
  return {
    principal: {
      kind: 'api_key',
      organisationId: key.organisationId,
      plan: key.plan,
      apiKeyId: key.apiKeyId,
      apiKeyName: key.name,
    },
    ...key,
  };
};

class FlakyBus extends InProcessNotificationBus {
  up = true;
  override get healthy() {
    return this.up;
  }
}

describe('ApiKeyCache', () => {
  it('serves a cached key until its TTL', () => {
    const cache = new ApiKeyCache(new InProcessNotificationBus(), 30_000);
    cache.set('h1', entry(), cache.currentGeneration());
    expect(cache.get('h1', 2_000)?.apiKeyId).toBe('k1');
    expect(cache.get('h1', 40_000)).toBeUndefined();
  });

  it('drops a key, or every key of an organisation, when told on the bus', async () => {
    const bus = new InProcessNotificationBus();
    const cache = new ApiKeyCache(bus);
    cache.set('h1', entry(), cache.currentGeneration());
    cache.set('h2', entry({ apiKeyId: 'k2' }), cache.currentGeneration());
    cache.set('h3', entry({ apiKeyId: 'k3', organisationId: 'o2' }), cache.currentGeneration());
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
    cache.set('h1', entry(), generation);
    expect(cache.get('h1', 1_000)).toBeUndefined();
  });

  it('keeps at most maxEntries, dropping the least recently used', () => {
    const cache = new ApiKeyCache(new InProcessNotificationBus(), 30_000, 2);
    cache.set('h1', entry(), cache.currentGeneration());
    cache.set('h2', entry({ apiKeyId: 'k2' }), cache.currentGeneration());
    expect(cache.get('h1', 1_000)).toBeDefined(); // h1 used: h2 is now the least recent
    cache.set('h3', entry({ apiKeyId: 'k3' }), cache.currentGeneration());
    expect(cache.get('h2', 1_000)).toBeUndefined();
    expect(cache.get('h1', 1_000)?.apiKeyId).toBe('k1');
    expect(cache.get('h3', 1_000)?.apiKeyId).toBe('k3');
  });

  it('keeps the least-recently-used order when the newest key is used again and again', async () => {
    const bus = new InProcessNotificationBus();
    const cache = new ApiKeyCache(bus, 30_000, 2);
    cache.set('h1', entry(), cache.currentGeneration());
    cache.set('h2', entry({ apiKeyId: 'k2' }), cache.currentGeneration());
    expect(cache.get('h2', 1_000)).toBeDefined(); // already the most recent
    expect(cache.get('h1', 1_000)).toBeDefined(); // h1 now the most recent
    expect(cache.get('h1', 1_000)).toBeDefined();
    cache.set('h3', entry({ apiKeyId: 'k3' }), cache.currentGeneration());
    expect(cache.get('h2', 1_000)).toBeUndefined();
    expect(cache.get('h1', 1_000)?.apiKeyId).toBe('k1');

    // The most recent dropped and cached again: it is the most recent once more.
    await bus.publish(AUTH_CHANNEL, 'key:k1');
    cache.set('h1', entry(), cache.currentGeneration());
    expect(cache.get('h3', 1_000)).toBeDefined();
    expect(cache.get('h1', 1_000)).toBeDefined();
    cache.set('h4', entry({ apiKeyId: 'k4' }), cache.currentGeneration());
    expect(cache.get('h3', 1_000)).toBeUndefined();
    expect(cache.get('h1', 1_000)?.apiKeyId).toBe('k1');
    expect(cache.get('h4', 1_000)?.apiKeyId).toBe('k4');
  });

  it('finds a presented key by its SHA-256, never holding the key itself', () => {
    const value = 'ilk_' + 'A'.repeat(64);
    expect(presentedKeyDigest(value)).toBe(createHash('sha256').update(value).digest('hex'));
    expect(presentedKeyDigest(value)).not.toContain('AAAA');
    expect(presentedKeyDigest(value + 'B')).not.toBe(presentedKeyDigest(value));
  });

  it('is bypassed while the bus is unhealthy', () => {
    const bus = new FlakyBus();
    const cache = new ApiKeyCache(bus);
    cache.set('h1', entry(), cache.currentGeneration());
    bus.up = false;
    expect(cache.get('h1', 1_000)).toBeUndefined();
    cache.set('h9', entry(), cache.currentGeneration());
    bus.up = true;
    expect(cache.get('h9', 1_000)).toBeUndefined();
  });
});
