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

/** Leaving the dashboard for the identity provider's page (an object, so a test can watch it). */
export const providerPage = {
  open(url: string): void {
    window.location.assign(url);
  },
};
