// The route guard's answer carried out, for the login page (App.tsx) and the
// signed-in part (SignedIn.tsx) alike.
import { useEffect } from 'react';
import { useLocation } from 'wouter';
import { brand } from '../brand.ts';
import type { Resolution } from '../routing/guard.ts';

/** Follow a resolution's redirect (replacing the history entry) and title the page. */
export function useResolution(res: Resolution, title: string): void {
  const [, navigate] = useLocation();
  const redirect = 'redirect' in res ? res.redirect : undefined;
  useEffect(() => {
    if (redirect) navigate(redirect, { replace: true });
  }, [redirect]);
  useEffect(() => {
    document.title = title ? `${title} - ${brand.title}` : brand.title;
  }, [title]);
}
