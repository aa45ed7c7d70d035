import { sendOrganisationWith } from '@interlock/api-client';
import { useSyncExternalStore } from 'react';

/**
 * The organisation this tab acts for. Each request names it (`x-organisation-id`), so tabs on
 * different organisations never interfere: the choice lives in this tab's sessionStorage, and
 * the last one chosen anywhere (localStorage) is where a new tab starts. It is only a request:
 * the API admits it only for the person's current memberships, and the signed-in layout
 * checks it against their list (GET /api/me) before anything is shown.
 */
const TAB = 'interlock.organisation';
const LAST = 'interlock.lastOrganisation';

const tabStorage = () => window.sessionStorage;
const lastStorage = () => window.localStorage;

function read(storage: () => Storage, key: string): string | undefined {
  try {
    return storage().getItem(key) ?? undefined;
  } catch {
    return undefined;
  }
}

let active: string | undefined =
  typeof window === 'undefined' ? undefined : (read(tabStorage, TAB) ?? read(lastStorage, LAST));
const listeners = new Set<() => void>();

sendOrganisationWith(() => active);

export function activeOrganisation(): string | undefined {
  return active;
}

export function setActiveOrganisation(id: string): void {
  if (active === id) return;
  active = id;
  try {
    tabStorage().setItem(TAB, id);
    lastStorage().setItem(LAST, id);
  } catch {
    // Storage may be unavailable (private mode): the choice then lasts as long as the page.
  }
  for (const listener of listeners) listener();
}

export function useActiveOrganisation(): string | undefined {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => active,
  );
}
