import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';

/**
 * The token an emailed link carries in its URL fragment (`/page#<token>`), which the browser
 * never sends anywhere; '' when there is none. Kept once read (also when a link is opened over
 * this very page), and dropped from the address bar at once, so it is not left in the history.
 */
export function useFragmentToken(): string {
  const { hash, pathname } = useLocation();
  const navigate = useNavigate();
  const fromLink = hash.replace(/^#/, '');
  const [token, setToken] = useState('');
  if (fromLink !== '' && fromLink !== token) setToken(fromLink);
  useEffect(() => {
    if (fromLink !== '') void navigate(pathname, { replace: true });
  }, [fromLink, pathname, navigate]);
  return token;
}
