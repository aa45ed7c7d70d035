// The inbox's first reads, asked for while the dashboard's code still loads (issue 31's budget:
// the inbox usable ≤ 1 s). The build puts it inline in index.html's head (vite.config.ts), so it
// runs as the page is parsed, before any of the app's files is fetched; it starts GET /api/me,
// the session, the tab counts and the first page of the list exactly as the app will ask for
// them, and leaves the answers in window.__interlockEarlyReads. The app's fetch
// (src/shared/utils/early-reads.ts) takes an answer from there once, when the same URL is asked
// for the same organisation within a few seconds; anything else goes to the network as ever.
// src/app/early-reads.dom.spec.ts checks that these URLs are the ones the app asks for.
(() => {
  const path = window.location.pathname;
  if (path !== '/inbox' && path !== '/') return;
  let organisation;
  try {
    organisation =
      window.sessionStorage.getItem('interlock.organisation') ||
      window.localStorage.getItem('interlock.lastOrganisation') ||
      undefined;
  } catch {
    organisation = undefined;
  }
  const params = new URLSearchParams(window.location.search);
  // The list's query in the order the app builds it (inboxFromParams, then limit).
  const query = [];
  const add = (name, value) => {
    query.push(name + '=' + encodeURIComponent(value));
  };
  let tab = params.get('tab');
  if (tab !== 'mine' && tab !== 'escalated' && tab !== 'answered') tab = 'open';
  const closed = params.get('closed');
  add(
    'status',
    tab !== 'answered'
      ? 'open'
      : closed === 'expired' || closed === 'withdrawn'
        ? closed
        : 'answered',
  );
  if (tab === 'mine') add('assignee', 'me');
  if (tab === 'escalated') add('escalated', 'true');
  const order = params.get('order');
  add('order', order === 'oldest' || order === 'deadline' ? order : 'newest');
  const q = (params.get('q') || '').trim();
  if (q !== '') add('q', q);
  const assignee = params.get('assignee');
  if (tab === 'open' && (assignee === 'unassigned' || assignee === 'my_teams'))
    add('assignee', assignee);
  const asked = (params.get('priority') || '').split(',');
  const priorities = ['low', 'normal', 'high', 'urgent'].filter((p) => asked.includes(p));
  if (priorities.length > 0) add('priority', priorities.join(','));
  const label = params.get('label') || '';
  if (/^[A-Za-z0-9_.:/+-]{1,50}$/.test(label)) add('label', label);
  add('limit', '50');
  const urls = [
    '/api/me',
    '/api/auth/session',
    '/api/interrupts?' + query.join('&'),
    '/api/interrupts/counts',
  ];
  const headers = organisation ? { 'x-organisation-id': organisation } : {};
  const at = Date.now();
  window.__interlockEarlyReads = urls.map((url) => {
    const response = fetch(url, { headers: headers, credentials: 'same-origin' });
    // A failed read is the app's to see (it asks again); unclaimed, it is nobody's error.
    response.catch(() => undefined);
    return { url: url, organisation: organisation, at: at, response: response };
  });
})();
