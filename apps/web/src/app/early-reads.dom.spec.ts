import { http, HttpResponse } from 'msw';
import { createQueryClient } from './query-client';
import {
  inboxFromParams,
  interruptCountsQuery,
  interruptListQuery,
} from '@/features/interrupts/api/interrupts.queries';
import { setActiveOrganisation } from '@/shared/sign-in/active-organisation';
import { meQuery } from '@/shared/sign-in/me.queries';
import { signInSessionQuery } from '@/shared/sign-in/sign-in-session.queries';
import { sendRequestsThrough } from '@interlock/api-client';
import { anInterrupt, aSignInSession } from '@/test/fixtures';
import { API, server } from '@/test/server';
import { EARLY_READ_MAX_AGE_MS, installEarlyReads } from '@/shared/utils/early-reads';
// The script index.html runs before the app's bundle (inline there; outside src/).
// eslint-disable-next-line no-restricted-imports
import SCRIPT from '../../early-reads.js?raw';

const ORGANISATION = '0b6f6a53-4a57-4c1b-9d0e-6f4c7d3a2b10';

/** Every request the service got, as path + query and the organisation it named. */
let asked: { url: string; organisation: string | null }[] = [];
/** Each answer names which request it was (the nth), so a test sees which one the app used. */
function answering() {
  const seen = (request: Request) => {
    const url = new URL(request.url);
    asked.push({
      url: url.pathname + url.search,
      organisation: request.headers.get('x-organisation-id'),
    });
    return asked.length;
  };
  server.use(
    http.get(`${API}/me`, ({ request }) =>
      HttpResponse.json({
        user: { id: 'u', email: 'ada@example.com', name: `me #${seen(request)}` },
        organisations: [],
      }),
    ),
    http.get(`${API}/auth/session`, ({ request }) => {
      const n = seen(request);
      const session = aSignInSession();
      return HttpResponse.json({ ...session, member: { ...session.member, name: `#${n}` } });
    }),
    http.get(`${API}/interrupts`, ({ request }) =>
      HttpResponse.json({
        interrupts: [anInterrupt({ title: `list #${seen(request)}` })],
        nextCursor: null,
      }),
    ),
    http.get(`${API}/interrupts/counts`, ({ request }) => {
      const n = seen(request);
      const c = { count: n, capped: false };
      return HttpResponse.json({
        open: c,
        assignedToMe: c,
        waitingForMe: c,
        escalated: c,
        answered: c,
      });
    }),
  );
}

/** Opens `path` as the browser would: the early script runs, then the app asks. */
function openPage(path: string) {
  window.history.replaceState(null, '', path);
  new Function(SCRIPT)();
}

beforeAll(() => installEarlyReads());
afterAll(() => sendRequestsThrough((request) => fetch(request)));
beforeEach(() => {
  asked = [];
  setActiveOrganisation(ORGANISATION);
  answering();
});
afterEach(() => {
  delete window.__interlockEarlyReads;
  window.history.replaceState(null, '', '/');
});

describe('the inbox’s early reads (apps/web/early-reads.js + earlyFetch)', () => {
  it.each([
    '',
    '?tab=mine',
    '?tab=escalated&order=oldest',
    '?tab=answered&closed=expired',
    '?tab=answered&closed=bogus&order=deadline',
    '?q=refund%20%C3%A9t%C3%A9%20%26%20more&assignee=unassigned',
    '?assignee=my_teams&order=deadline&q=+x+',
    '?tab=mine&assignee=unassigned',
    '?tab=nonsense&order=sideways',
    '?priority=urgent,high,bogus,high&label=team%3Apayments%2Feu',
    '?tab=answered&priority=low&label=has%20space',
  ])('the app takes every read the page started for /inbox%s, none twice', async (search) => {
    openPage(`/inbox${search}`);
    const queries = createQueryClient();
    const { filters } = inboxFromParams(new URLSearchParams(search));
    const [me, session, list, counts] = await Promise.all([
      queries.fetchQuery(meQuery),
      queries.fetchQuery(signInSessionQuery),
      queries.fetchInfiniteQuery(interruptListQuery(filters)),
      queries.fetchQuery(interruptCountsQuery),
    ]);
    // Four requests reached the service, all from the early script, each for this organisation.
    expect(asked).toHaveLength(4);
    expect(asked.every((a) => a.organisation === ORGANISATION)).toBe(true);
    // …and the app's answers are theirs.
    expect(me?.user.name).toMatch(/^me #[1-4]$/);
    expect(session?.member.name).toMatch(/^#[1-4]$/);
    expect(list.pages[0].interrupts[0].title).toMatch(/^list #[1-4]$/);
    expect(counts.open.count).toBeLessThanOrEqual(4);
    expect(window.__interlockEarlyReads).toEqual([]);
  });

  it('asks again for what was already taken, for another organisation, and when too old', async () => {
    openPage('/inbox');
    const queries = createQueryClient();
    await queries.fetchQuery(interruptCountsQuery);
    expect(asked.filter((a) => a.url === '/api/interrupts/counts')).toHaveLength(1);
    // Taken once: the same read again goes to the service.
    const again = await createQueryClient().fetchQuery(interruptCountsQuery);
    expect(asked.filter((a) => a.url === '/api/interrupts/counts')).toHaveLength(2);
    expect(again.open.count).toBe(asked.length);

    // The tab acts for another organisation by the time it asks: its own request, with its header.
    const other = '5c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
    setActiveOrganisation(other);
    await createQueryClient().fetchQuery(signInSessionQuery);
    expect(asked.filter((a) => a.url === '/api/auth/session').map((a) => a.organisation)).toEqual([
      ORGANISATION,
      other,
    ]);
    setActiveOrganisation(ORGANISATION);

    // An answer older than the limit is left alone.
    const reads = window.__interlockEarlyReads ?? [];
    for (const read of reads) read.at -= EARLY_READ_MAX_AGE_MS + 1;
    await createQueryClient().fetchQuery(meQuery);
    expect(asked.filter((a) => a.url === '/api/me')).toHaveLength(2);
  });

  it('starts nothing on other pages', () => {
    openPage('/audit-log');
    expect(window.__interlockEarlyReads).toBeUndefined();
    expect(asked).toEqual([]);
  });
});
