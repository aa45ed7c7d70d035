import { useEffect } from 'react';
import { useFragmentToken } from './use-fragment-token';

const KEY = 'interlock.invitation-proof';

/**
 * The invitation email's `#<emailProof>` (SPEC §8f), for the invitation `token`: it proves the
 * address, so accepting or joining with it verifies the account's. This tab keeps it meanwhile,
 * because a person with an account signs in first and comes back by the sign-in's `?next=`, which
 * carries the path only; '' when the link came without it (a link copied from the dashboard).
 */
export function useInvitationProof(token: string): string {
  const fromLink = useFragmentToken();
  useEffect(() => {
    if (fromLink === '') return;
    try {
      sessionStorage.setItem(KEY, JSON.stringify({ token, proof: fromLink }));
    } catch {
      // Storage refused (private mode, full): the proof lasts as long as this page.
    }
  }, [token, fromLink]);
  return fromLink !== '' ? fromLink : keptProof(token);
}

function keptProof(token: string): string {
  try {
    const kept: unknown = JSON.parse(sessionStorage.getItem(KEY) ?? 'null');
    if (typeof kept !== 'object' || kept === null) return '';
    const { token: keptFor, proof } = kept as { token?: unknown; proof?: unknown };
    return keptFor === token && typeof proof === 'string' ? proof : '';
  } catch {
    return '';
  }
}

/** Once the invitation is used, its proof is no use to keep. */
export function forgetInvitationProof(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // As above.
  }
}
