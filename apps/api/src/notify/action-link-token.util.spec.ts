import { ActionLinkSigner, ACTION_LINK_TTL_SECONDS } from './action-link-token.util';

const claims = {
  organisationId: '6c0f7a52-93a3-4d55-9e4b-7c2b3f1a0e11',
  interruptId: '0b7d3c1e-6a43-4f0e-9b0a-3f6f1d7a9c11',
  actionName: 'deploy',
  decision: 'approve' as const,
  userId: '2f1e0d3c-4b5a-4697-8877-665544332211',
  actionDigest: 'a'.repeat(64),
};

describe('ActionLinkSigner', () => {
  const signer = new ActionLinkSigner('server-secret-0123456789-0123456789');

  it('reads back what it signed, expiring 24 hours after it was made, with a fresh nonce each time', () => {
    const now = Date.UTC(2026, 10, 26, 12, 0, 0);
    const token = signer.mint(claims, now);
    expect(token).toMatch(/^al1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    const read = signer.read(token);
    expect(read).toEqual({
      ...claims,
      expiresAt: now / 1000 + ACTION_LINK_TTL_SECONDS,
      nonce: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(signer.read(signer.mint(claims, now))?.nonce).not.toBe(read?.nonce);
  });

  it('refuses a token whose claims or mac were altered, one signed under another secret, and malformed ones', () => {
    const token = signer.mint(claims);
    const [prefix, body, mac] = token.split('.');
    const altered = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), d: 'reject' }),
    ).toString('base64url');
    expect(signer.read(`${prefix}.${altered}.${mac}`)).toBeNull();
    expect(
      signer.read(`${prefix}.${body}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`),
    ).toBeNull();
    expect(signer.read(`al2.${body}.${mac}`)).toBeNull();
    expect(new ActionLinkSigner('another-secret-0123456789-0123456789').read(token)).toBeNull();
    for (const bad of ['', 'al1', 'al1..', `${token}.x`, 42, null, undefined, 'x'.repeat(5000)])
      expect(signer.read(bad)).toBeNull();
  });

  it('refuses signed claims of the wrong shape', () => {
    expect(signer.read(signer.mint({ ...claims, decision: 'edit' as never }))).toBeNull();
    expect(signer.read(signer.mint({ ...claims, userId: 'not-a-uuid' }))).toBeNull();
    expect(signer.read(signer.mint({ ...claims, actionDigest: 'short' }))).toBeNull();
  });
});
