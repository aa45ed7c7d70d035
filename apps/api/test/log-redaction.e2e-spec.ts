import request from 'supertest';
import { createApiKey, signUpOwner, SignedUpOwner } from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

// Issue 10, defect 4: a key sent in the query string (`?x-api-key=ilk_…`) was logged in full
// in the request line's `url`. Credentials in a URL never reach any log line.
describe('credentials in URLs are redacted from every log line', () => {
  let t: TestApp;
  let owner: SignedUpOwner;
  let key: string;
  const http = () => request(t.app.getHttpServer());
  const logged = () => JSON.stringify(t.logs);

  beforeAll(async () => {
    t = await startTestApp();
    owner = await signUpOwner(t.app.getHttpServer());
    key = (await createApiKey(t.app.getHttpServer(), owner.cookie)).key;
  });
  afterAll(async () => {
    await t.close();
  });

  it('a key in the query string, under any name, in a path or percent-encoded', async () => {
    const requests = [
      `/api/whoami?x-api-key=${key}`,
      `/api/whoami?q=${key}`,
      `/api/whoami?q=${encodeURIComponent(`Bearer ${key}`)}`,
      `/api/interrupts/${key}`,
      `/api/whoami?${key}`,
      `/no-such-route?apiKey=${key}`,
    ];
    for (const url of requests) await http().get(url);
    const lines = t.logs.filter((l) => typeof (l.req as { url?: string } | undefined)?.url === 'string');
    expect(lines.length).toBeGreaterThanOrEqual(requests.length);
    expect(logged()).not.toContain(key);
    expect(logged()).not.toContain(key.slice(8));
    expect(lines.map((l) => (l.req as { url: string }).url)).toEqual(
      expect.arrayContaining(['/api/whoami?x-api-key=[redacted]', '/api/interrupts/[redacted]', '/no-such-route?apiKey=[redacted]']),
    );
  });

  it('parameters named like a credential, whatever their value', async () => {
    await http().get('/api/whoami?token=tok-abc-123&password=hunter2hunter2&client_secret=s3cr3t-value&status=open');
    expect(logged()).not.toMatch(/tok-abc-123|hunter2hunter2|s3cr3t-value/);
    expect(logged()).toContain('/api/whoami?token=[redacted]&password=[redacted]&client_secret=[redacted]&status=open');
  });
});
