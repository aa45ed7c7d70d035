import request from 'supertest';
import { DataSource } from 'typeorm';
import { hashApiKey } from '@interlock/api-keys';
import {
  createApiKey,
  openInterrupt,
  signUpOwner,
  SignedUpOwner,
  startSession,
} from './support/factories';
import { startTestApp, TestApp } from './support/test-app';

// Cursors are keyed by CURSOR_SECRET (HKDF, @interlock/cursor), not by the API-key pepper: an
// instance with a new pepper and the same cursor secret honours the cursors of the old one (while
// the old keys stop working), and an instance with another cursor secret refuses them. (Keys are
// checked against the stored hashes, not over HTTP.)
describe('CURSOR_SECRET: cursor keys rotate apart from the pepper', () => {
  const CURSOR_SECRET = 'cursor-secret-0123456789-0123456789-0123456789';
  let before: TestApp;
  let newPepper: TestApp;
  let newCursorSecret: TestApp;
  let owner: SignedUpOwner;
  let key: string;
  const cursors: Record<string, string> = {};
  const listings = ['/api/audit-log', '/api/interrupts', '/api/sessions'] as const;

  /** Whether the key created on `before` still verifies under `app`'s pepper. */
  async function keyStillMatches(app: TestApp): Promise<boolean> {
    const [row] = await app.app
      .get(DataSource)
      .query(`SELECT key_hash FROM api_keys WHERE organisation_id = $1`, [owner.organisationId]);
    return row.key_hash === hashApiKey(key, app.config.apiKeyPepper);
  }

  beforeAll(async () => {
    before = await startTestApp({ env: { CURSOR_SECRET } });
    const server = before.app.getHttpServer();
    owner = await signUpOwner(server);
    key = (await createApiKey(server, owner.cookie)).key;
    for (let i = 0; i < 2; i++) {
      await openInterrupt(server, key, { title: `Deploy ${i}` });
      await startSession(server, key, { name: `run ${i}` });
    }
    for (const path of listings) {
      const res = await request(server).get(path).query({ limit: 1 }).set('cookie', owner.cookie);
      expect(res.status).toBe(200);
      cursors[path] = res.body.nextCursor as string;
      expect(typeof cursors[path]).toBe('string');
    }
    const url = before.database.url;
    newPepper = await startTestApp({
      databaseUrl: url,
      env: { CURSOR_SECRET, API_KEY_PEPPER: 'rotated-pepper-0123456789-0123456789-0123' },
    });
    newCursorSecret = await startTestApp({
      databaseUrl: url,
      env: { CURSOR_SECRET: `${CURSOR_SECRET}-rotated` },
    });
  });

  afterAll(async () => {
    await newCursorSecret?.close();
    await newPepper?.close();
    await before?.close();
  });

  it.each(listings)('%s: a cursor survives a new pepper', async (path) => {
    const server = newPepper.app.getHttpServer();
    const res = await request(server)
      .get(path)
      .query({ limit: 1, cursor: cursors[path] })
      .set('cookie', owner.cookie);
    expect(res.status).toBe(200);
    expect(await keyStillMatches(newPepper)).toBe(false);
  });

  it.each(listings)('%s: a cursor dies with its cursor secret, the key does not', async (path) => {
    const server = newCursorSecret.app.getHttpServer();
    const res = await request(server)
      .get(path)
      .query({ limit: 1, cursor: cursors[path] })
      .set('cookie', owner.cookie);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/cursor/);
    expect(await keyStillMatches(newCursorSecret)).toBe(true);
  });
});
