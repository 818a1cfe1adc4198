// Signed-in layout (SPEC §2 Layout): sidebar, top bar with breadcrumb and
// user menu, main area.
import { useEffect } from 'react';
import { i18n } from '@lingui/core';
import type { FlatRoute } from './routes.ts';
import { Sidebar } from './Sidebar.tsx';
import { TopBar } from './TopBar.tsx';
import { SCREENS } from '../screens/index.ts';
import { ConfirmHost } from '../ui/confirm.tsx';
import { useStore } from '../state/use-store.ts';
import { $drawerOpen, $mobile, $sidebarOpen } from '../state/ui.ts';
import { startFunctionRefresh } from '../state/functions.ts';
// The hidden service routes ship in this file too (App loads them on demand).
export { Service } from '../screens/maint/service.tsx';

export default function Layout({ route }: { route: FlatRoute }) {
  // Every screen inside the layout has an entry (a unit test checks it).
  const Screen = SCREENS[route.title];
  const open = useStore($sidebarOpen);
  const mobile = useStore($mobile);
  const drawer = useStore($drawerOpen);
  useEffect(() => startFunctionRefresh(), []);
  const cls = ['layout', mobile ? (drawer ? 'drawer-open' : 'drawer-closed') : open ? 'expanded' : 'collapsed'];
  return (
    <div class={cls.join(' ')}>
      <a class="skip" href="#main">
        {i18n._('layout.skip')}
      </a>
      <Sidebar route={route} />
      {mobile && drawer && <div class="backdrop" onClick={() => $drawerOpen.set(false)} />}
      <div class="main-col">
        <TopBar route={route} />
        <main id="main" class="main" tabIndex={-1}>
          <Screen key={route.path} />
        </main>
      </div>
      <ConfirmHost />
    </div>
  );
}
