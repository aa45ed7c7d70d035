import { generateWebhookSecret, WebhookSecretBox } from './webhook-secret.util';

const ORG = '0b6f6f3e-2a43-4a39-9a0e-5b1c1d0e0f10';
const HOOK = '5d1c7a4e-8f2b-4c3d-9e1f-a2b3c4d5e6f7';

describe('webhook secrets', () => {
  it('are whsec_ and the base64 of 32 random bytes', () => {
    const a = generateWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(a.slice(6), 'base64')).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(a);
  });

  it('are sealed (AES-256-GCM) so that only their own row opens them, under the same server secret', () => {
    const box = new WebhookSecretBox('p'.repeat(32));
    const secret = generateWebhookSecret();
    const sealed = box.seal(secret, ORG, HOOK);
    expect(sealed.includes(Buffer.from(secret))).toBe(false);
    expect(sealed.includes(Buffer.from(secret.slice(6), 'base64'))).toBe(false);
    expect(box.open(sealed, ORG, HOOK)).toBe(secret);
    expect(box.seal(secret, ORG, HOOK).equals(sealed)).toBe(false);
    expect(() => box.open(sealed, ORG, ORG)).toThrow();
    expect(() => new WebhookSecretBox('q'.repeat(32)).open(sealed, ORG, HOOK)).toThrow();
    const tampered = Buffer.from(sealed);
    tampered[tampered.length - 1] ^= 1;
    expect(() => box.open(tampered, ORG, HOOK)).toThrow();
    expect(() => box.open(Buffer.from([2, 1, 2, 3]), ORG, HOOK)).toThrow(
      'unknown webhook secret format',
    );
  });
});
