import { safeNextPath } from './next-path';

const KEY = 'interlock.sso-next';

/**
 * Where to go once single sign-on finishes: the sign-in's `?next=` cannot ride through the
 * provider (the redirect URI is fixed), so this tab keeps it meanwhile.
 */
export function rememberSsoNext(next: string): void {
  try {
    sessionStorage.setItem(KEY, next);
  } catch {
    // Storage refused (private mode, full): the start page it is.
  }
}

/** The path kept by `rememberSsoNext` (checked again: storage is not trusted), once; else `/`. */
export function takeSsoNext(): string {
  let kept: string | null = null;
  try {
    kept = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
  } catch {
    // As above.
  }
  return safeNextPath(kept);
}

const LINK_KEY = 'interlock.sso-link';

/**
 * A single sign-on started from Settings → Security to link the account (SPEC §8f): the callback
 * page shows its outcome as that, and goes back there. The organisation's name, for the message;
 * null: a plain sign-in.
 */
export function rememberSsoLink(organisationName: string | null): void {
  try {
    if (organisationName === null) sessionStorage.removeItem(LINK_KEY);
    else sessionStorage.setItem(LINK_KEY, organisationName);
  } catch {
    // Storage refused: the callback treats it as a sign-in, which it also is.
  }
}

/** The organisation kept by `rememberSsoLink` (left kept: a render may read it twice); null for a plain sign-in. */
export function readSsoLink(): string | null {
  try {
    return sessionStorage.getItem(LINK_KEY);
  } catch {
    return null;
  }
}

/** Leaving the dashboard for the identity provider's page (an object, so a test can watch it). */
export const providerPage = {
  open(url: string): void {
    window.location.assign(url);
  },
};
