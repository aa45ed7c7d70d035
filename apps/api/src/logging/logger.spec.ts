import { redactUrl } from './logger';

const KEY = `ilk_${'Ab'.repeat(32)}`;

describe('redactUrl', () => {
  it('keeps ordinary URLs as they are', () => {
    expect(redactUrl('/api/interrupts?status=open&limit=20')).toBe('/api/interrupts?status=open&limit=20');
    expect(redactUrl('/api/audit-log?q=deploy%20key&actorType=api_key')).toBe('/api/audit-log?q=deploy%20key&actorType=api_key');
    expect(redactUrl('/health/live')).toBe('/health/live');
  });

  it('redacts a key wherever it appears: a query value, a path segment, percent-encoded, as a bare name', () => {
    expect(redactUrl(`/api/whoami?x-api-key=${KEY}`)).toBe('/api/whoami?x-api-key=[redacted]');
    expect(redactUrl(`/api/whoami?q=${KEY}`)).toBe('/api/whoami?q=[redacted]');
    expect(redactUrl(`/api/whoami?q=${encodeURIComponent(` ${KEY}`)}`)).toBe('/api/whoami?q= [redacted]');
    expect(redactUrl(`/api/interrupts/${KEY}`)).toBe('/api/interrupts/[redacted]');
    expect(redactUrl(`/api/whoami?${KEY}`)).toBe('/api/whoami?[redacted]');
    expect(redactUrl('/x?v=ilk_Abcd')).toBe('/x?v=[redacted]');
  });

  it('recognises a configured prefix, and any prefix followed by 64 letters', () => {
    expect(redactUrl('/x?v=acme_Abcdef', 'acme_')).toBe('/x?v=[redacted]');
    expect(redactUrl(`/x?v=other_${'x'.repeat(64)}`, 'acme_')).toBe('/x?v=[redacted]');
  });

  it('redacts every parameter named like a credential, whatever its value', () => {
    for (const name of ['key', 'api_key', 'apiKey', 'token', 'access_token', 'secret', 'client_secret', 'password', 'passwd', 'session', 'auth', 'signature']) {
      expect(redactUrl(`/x?a=1&${name}=hunter2&b=2`)).toBe(`/x?a=1&${name}=[redacted]&b=2`);
    }
    expect(redactUrl('/x?PASSWORD=a&Token=b')).toBe('/x?PASSWORD=[redacted]&Token=[redacted]');
  });

  it('redacts the invitation token in its path', () => {
    expect(redactUrl('/api/invitations/tok-123/accept')).toBe('/api/invitations/[redacted]/accept');
    expect(redactUrl('/API/Invitations/tok-123/accept?x=1')).toBe('/API/Invitations/[redacted]/accept?x=1');
  });
});
