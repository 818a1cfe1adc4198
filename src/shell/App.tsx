// Root: the route guard picks a redirect or a screen; signed-in screens sit
// inside the layout.
import { useEffect, type ComponentType } from 'react';
import { useLocation, useSearch } from 'wouter';
import { i18n } from '@lingui/core';
import { resolveRoute } from './routes.ts';
import { Lazy } from './Lazy.tsx';
import Login from '../screens/Login.tsx';
import NotFound from '../screens/NotFound.tsx';
import { Toasts } from '../ui/Toasts.tsx';
import { useStore } from '../state/use-store.ts';
import { $session } from '../state/session.ts';
import { navigated } from '../state/ui.ts';
import { $screenTexts, loadScreenTexts, useLocale } from '../i18n/index.ts';
import { brand, loadStylesheet, pageData } from '../brand.ts';

/** Screens outside the layout; the login page ships with the app (no second request). */
const STANDALONE_SCREENS: Record<string, ComponentType> = { '/login': Login, '/404': NotFound };

/** The signed-in layout (with its stylesheet and the screens' texts) loads on demand: the login page does not carry it. */
export const loadLayout = () =>
  Promise.all([import('./Layout.tsx'), loadStylesheet(pageData.layoutCss), loadScreenTexts()]).then(([layout]) => layout);
/** The hidden service routes (/snkey, /up, /test, /cmd) ship in the layout's file. */
const loadService = () => loadLayout().then((m) => ({ default: m.Service }));

export function App() {
  const [location, navigate] = useLocation();
  const search = useSearch();
  const session = useStore($session);
  useLocale();
  const res = resolveRoute(location, search, session);
  const redirect = 'redirect' in res ? res.redirect : undefined;
  const route = 'route' in res ? res.route : undefined;

  useEffect(() => {
    if (redirect) navigate(redirect, { replace: true });
  }, [redirect]);
  useEffect(() => {
    navigated();
    window.scrollTo(0, 0);
  }, [location]);
  const Standalone = route && STANDALONE_SCREENS[route.path];
  // Route titles are screen texts (not on the login path), but the login page's and the 404 page's.
  const texts = useStore($screenTexts);
  const title = route && (texts || Standalone) ? i18n._(route.title) : '';
  useEffect(() => {
    document.title = title ? `${title} - ${brand.title}` : brand.title;
  }, [title]);

  return (
    <>
      {route &&
        (route.inLayout || !Standalone ? (
          <Lazy load={route.inLayout ? loadLayout : loadService} props={{ route }} />
        ) : (
          Standalone && <Standalone key={route.path} />
        ))}
      <Toasts />
    </>
  );
}
