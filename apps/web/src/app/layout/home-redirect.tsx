import { Navigate } from 'react-router';
import { useSignedIn } from '@/shared/sign-in/sign-in-session.queries';

/** `/`: the inbox for reviewers, the organisation page for everyone else. */
export function HomeRedirect() {
  const { permissions } = useSignedIn();
  return (
    <Navigate to={permissions.includes('interrupt.read') ? '/inbox' : '/organisation'} replace />
  );
}
