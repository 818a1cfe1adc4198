// Signed-in layout (SPEC §2 Layout): sidebar, top bar with breadcrumb and
// user menu, main area headed by the page's one h1, the route's title (the
// breadcrumb's and the document title's); screens head their parts with h2.
import { useEffect } from 'react';
import { i18n } from '@lingui/core';
import type { FlatRoute } from '../routing/routes.ts';
import { Sidebar } from './Sidebar.tsx';
import { TopBar } from './TopBar.tsx';
import { SCREENS } from '../screens/index.ts';
import { ConfirmHost } from '../ui/confirm.tsx';
import { useStore } from '../state/use-store.ts';
import { $drawerOpen, $mobile, $sidebarOpen } from '../state/ui.ts';
import { startFunsRefresh } from '../api/funs.ts';
export function Layout({ route }: { route: FlatRoute }) {
  // Every screen inside the layout has an entry (a unit test checks it).
  const Screen = SCREENS[route.title];
  const open = useStore($sidebarOpen);
  const mobile = useStore($mobile);
  const drawer = useStore($drawerOpen);
  useEffect(() => startFunsRefresh(), []);
  const cls = ['layout', mobile ? (drawer ? 'drawer-open' : 'drawer-closed') : open ? 'expanded' : 'collapsed'];
  return (
    <div className={cls.join(' ')}>
      <a className="skip" href="#main">
        {i18n._('layout.skip')}
      </a>
      <Sidebar route={route} />
      {mobile && drawer && <div className="backdrop" onClick={() => $drawerOpen.set(false)} />}
      <div className="main-col">
        <TopBar route={route} />
        <main id="main" className="main" tabIndex={-1}>
          <h1>{i18n._(route.title)}</h1>
          <Screen key={route.path} />
        </main>
      </div>
      <ConfirmHost />
    </div>
  );
}
