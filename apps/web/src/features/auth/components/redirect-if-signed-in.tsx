import { Navigate, useSearchParams } from 'react-router';
import { useMe } from '@/shared/sign-in/me.queries';
import { safeNextPath } from '@/shared/sign-in/next-path';

/** Where to go after signing in: `?next=` when it is a path of this app, else the start page. */
export function useNextPath(): string {
  const [params] = useSearchParams();
  return safeNextPath(params.get('next'));
}

/** A signed-in person who opens the sign-in page goes on to the app. */
export function RedirectIfSignedIn() {
  const me = useMe();
  const next = useNextPath();
  return me.data ? <Navigate to={next} replace /> : null;
}
