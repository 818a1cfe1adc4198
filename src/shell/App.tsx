// Root: without a session, the login page (or the open /test); with one,
// the signed-in part, which resolves every other route and ships with the
// layout (SignedIn.tsx): the routes table is not on the login path.
import { useEffect } from 'react';
import { useLocation, useSearch } from 'wouter';
import { i18n } from '@lingui/core';
import { guestRoute } from '../routing/guard.ts';
import { useResolution } from './resolution.ts';
import { Lazy } from './Lazy.tsx';
import Login from '../screens/Login.tsx';
import { Toasts } from '../ui/Toasts.tsx';
import { useStore } from '../state/use-store.ts';
import { $session } from '../state/session.ts';
import { navigated } from '../state/ui.ts';
import { $screenTexts, loadScreenTexts, useLocale } from '../i18n/index.ts';
import { loadStylesheet, pageData } from '../brand.ts';

/** The signed-in part (with the layout's stylesheet and the screens' texts) loads on demand: the login page does not carry it. */
export const loadLayout = () =>
  Promise.all([import('./SignedIn.tsx'), loadStylesheet(pageData.layoutCss), loadScreenTexts()]).then(([m]) => m);
/** The hidden service routes (/snkey, /up, /test, /cmd) ship in the layout's file. */
const loadService = () => loadLayout().then((m) => ({ default: m.Service }));

export function App() {
  const [location] = useLocation();
  const search = useSearch();
  const session = useStore($session);
  useLocale();
  useEffect(() => {
    navigated();
    window.scrollTo(0, 0);
  }, [location]);
  return (
    <>
      {session ? <Lazy load={loadLayout} props={{ location, search, session }} /> : <Guest location={location} search={search} />}
      <Toasts />
    </>
  );
}

function Guest({ location, search }: { location: string; search: string }) {
  const res = guestRoute(location, search);
  const route = 'route' in res ? res.route : undefined;
  const login = route?.path === '/login';
  // /test's title is a screen text (with the layout's file); the login page's is not.
  const texts = useStore($screenTexts);
  useResolution(res, route && (login || texts) ? i18n._(route.title) : '');
  if (!route) return null;
  return login ? <Login /> : <Lazy load={loadService} props={{ route }} />;
}
