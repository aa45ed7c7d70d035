import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { aSignInSession } from './fixtures';

/** Where the dashboard's relative `/api/…` calls go in tests (jsdom's origin). */
export const API = `${window.location.origin}/api`;

/**
 * The service, as MSW. By default someone is signed in (aSignInSession); each test adds the
 * handlers it needs with `server.use(http.get(`${API}/…`, …))`.
 */
export const server = setupServer(
  http.get(`${API}/auth/session`, () => HttpResponse.json(aSignInSession())),
  // The packages this server offers at /downloads (the agent snippet's install command): none.
  http.get(`${window.location.origin}/downloads`, () => HttpResponse.json({ packages: [] })),
);
