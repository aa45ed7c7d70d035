import { redactUrl } from './logger';

const KEY = `ilk_${'Ab'.repeat(32)}`;

describe('redactUrl', () => {
  it('keeps ordinary URLs as they are', () => {
    expect(redactUrl('/api/interrupts?status=open&limit=20')).toBe(
      '/api/interrupts?status=open&limit=20',
    );
    expect(redactUrl('/api/audit-log?q=deploy%20key&actorType=api_key')).toBe(
      '/api/audit-log?q=deploy%20key&actorType=api_key',
    );
    expect(redactUrl('/health/live')).toBe('/health/live');
  });

  it('redacts a key wherever it appears: a query value, a path segment, percent-encoded, as a bare name', () => {
    expect(redactUrl(`/api/whoami?x-api-key=${KEY}`)).toBe('/api/whoami?x-api-key=[redacted]');
    expect(redactUrl(`/api/whoami?q=${KEY}`)).toBe('/api/whoami?q=[redacted]');
    expect(redactUrl(`/api/whoami?q=${encodeURIComponent(` ${KEY}`)}`)).toBe(
      '/api/whoami?q= [redacted]',
    );
    expect(redactUrl(`/api/interrupts/${KEY}`)).toBe('/api/interrupts/[redacted]');
    expect(redactUrl(`/api/whoami?${KEY}`)).toBe('/api/whoami?[redacted]');
    expect(redactUrl('/x?v=ilk_Abcd')).toBe('/x?v=[redacted]');
  });

  it('recognises a configured prefix, and any prefix followed by 64 letters', () => {
    expect(redactUrl('/x?v=acme_Abcdef', 'acme_')).toBe('/x?v=[redacted]');
    expect(redactUrl(`/x?v=other_${'x'.repeat(64)}`, 'acme_')).toBe('/x?v=[redacted]');
  });

  it('redacts every parameter named like a credential, whatever its value', () => {
    for (const name of [
      'key',
      'api_key',
      'apiKey',
      'token',
      'access_token',
      'secret',
      'client_secret',
      'password',
      'passwd',
      'session',
      'auth',
      'signature',
    ]) {
      expect(redactUrl(`/x?a=1&${name}=hunter2&b=2`)).toBe(`/x?a=1&${name}=[redacted]&b=2`);
    }
    expect(redactUrl('/x?PASSWORD=a&Token=b')).toBe('/x?PASSWORD=[redacted]&Token=[redacted]');
  });

  it('redacts the invitation token in its path', () => {
    expect(redactUrl('/api/invitations/tok-123/accept')).toBe('/api/invitations/[redacted]/accept');
    expect(redactUrl('/API/Invitations/tok-123/accept?x=1')).toBe(
      '/API/Invitations/[redacted]/accept?x=1',
    );
  });
});

describe('redactUrl and invitation tokens (issue 34, item 6)', () => {
  const TOKEN = 'X6JaqQtQvu0lacGUcX3lPQZLod6iFwt1xZiSO6LpBCU';

  it('redacts the token after invitations/ in every path, keeping an invitation id', () => {
    expect(redactUrl(`/api/invitations/${TOKEN}/preview`)).toBe(
      '/api/invitations/[redacted]/preview',
    );
    expect(redactUrl(`/api/invitations/${TOKEN}/join`)).toBe('/api/invitations/[redacted]/join');
    expect(redactUrl(`/invitations/${TOKEN}`)).toBe('/invitations/[redacted]');
    expect(redactUrl('/invitations/short-guess?x=1')).toBe('/invitations/[redacted]?x=1');
    expect(redactUrl('/api/invitations/0b7c4a52-1f0e-4d7a-9a51-55bd2b0b1e11')).toBe(
      '/api/invitations/0b7c4a52-1f0e-4d7a-9a51-55bd2b0b1e11',
    );
    expect(redactUrl('/api/invitations')).toBe('/api/invitations');
  });

  it('redacts it in a query value however often it was encoded, and in a full URL (a Referer)', () => {
    expect(redactUrl(`/sign-in?next=${encodeURIComponent(`/invitations/${TOKEN}`)}`)).toBe(
      '/sign-in?next=/invitations/[redacted]',
    );
    expect(
      redactUrl(`/sign-in?next=${encodeURIComponent(encodeURIComponent(`/invitations/${TOKEN}`))}`),
    ).toBe('/sign-in?next=/invitations/[redacted]');
    expect(redactUrl(`https://interlock.example.com/invitations/${TOKEN}?a=b`)).toBe(
      'https://interlock.example.com/invitations/[redacted]?a=b',
    );
    expect(redactUrl(`/x?invite=${TOKEN}&status=open`)).toBe('/x?invite=[redacted]&status=open');
  });
});
