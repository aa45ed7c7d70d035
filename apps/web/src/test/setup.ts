// Set-up for the dashboard's component tests (apps/web/vite.config.ts, the `components` project):
// Testing Library's DOM matchers, what jsdom lacks and Mantine uses, and the MSW server that
// answers the API.
import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
// The generated client's instance, to give its relative URLs an origin.
import { client } from '@interlock/api-client';
import { memoiseComputedStyle } from './computed-style-memo';
import { server } from './server';

// findBy…/waitFor wait for a condition, not a time: on the shared machine under load a lazily
// loaded chunk or a query can take seconds, so they wait up to 10 s before failing.
configure({ asyncUtilTimeout: 10_000 });

// jsdom's getComputedStyle, once per element per document state (computed-style-memo.ts): it was
// nearly half of a route spec's profile; the route specs now take a fifth to a quarter less CPU.
memoiseComputedStyle(window);

// The dashboard calls `/api/…` on its own origin; Node's fetch needs the origin spelled out.
client.setConfig({ baseUrl: window.location.origin });

// Mantine reads the colour-scheme preference and watches sizes.
window.matchMedia ??= ((query: string) => ({
  matches: false,
  media: query,
  onchange: null,
  addEventListener: () => undefined,
  removeEventListener: () => undefined,
  addListener: () => undefined,
  removeListener: () => undefined,
  dispatchEvent: () => false,
})) as typeof window.matchMedia;
const nothing = () => undefined;
globalThis.ResizeObserver ??= class {
  observe = nothing;
  unobserve = nothing;
  disconnect = nothing;
};
Element.prototype.scrollIntoView ??= nothing;
// The inbox loads its next page when a sentinel comes into view; jsdom never scrolls.
globalThis.IntersectionObserver ??= class {
  readonly root = null;
  readonly rootMargin = '0px';
  readonly thresholds = [0];
  observe = nothing;
  unobserve = nothing;
  disconnect = nothing;
  takeRecords = () => [];
} as unknown as typeof IntersectionObserver;
// Mantine's autosizing textarea re-measures when web fonts load.
if (!('fonts' in document))
  Object.defineProperty(document, 'fonts', {
    value: { addEventListener: () => undefined, removeEventListener: () => undefined },
  });

// Any request without a handler fails the test that made it: nothing reaches a real network.
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

// The component files share one module graph and one window in their worker (`isolate: false`,
// vite.config.ts), so Testing Library's own hooks, which it registers when it is first imported,
// are in the first file only. This file runs before each one: unmount after every test, and
// tell React it runs under act() (what those hooks do); each file starts with empty storage, as
// in a window of its own.
beforeAll(() => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => cleanup());
