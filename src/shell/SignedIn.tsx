// The signed-in part of the route guard (SPEC §2), loaded with the layout:
// groups open their first screen, unknown paths go to /404, screens sit in
// the layout, the hidden service routes and the 404 page stand alone.
import { i18n } from '@lingui/core';
import { resolveRoute } from '../routing/routes.ts';
import { useResolution } from './resolution.ts';
import { Layout } from './Layout.tsx';
import NotFound from '../screens/NotFound.tsx';
import { Service } from '../screens/maint/service.tsx';
import type { Session } from '../state/session.ts';
import Activate from '../screens/Activate.tsx';

// App loads the service routes on demand from this file for /test without a session.
export { Service };

export default function SignedIn({ location, search, session }: { location: string; search: string; session: Session }) {
  const res = resolveRoute(location, search, session);
  const route = 'route' in res ? res.route : undefined;
  useResolution(res, route ? i18n._(route.title) : '');
  if (!route) return null;
  if (route.inLayout) return <Layout route={route} />;
  if (route.path === '/activate') return <Activate />;
  return route.path === '/404' ? <NotFound /> : <Service route={route} />;
}
