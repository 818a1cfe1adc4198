import { i18n } from '@lingui/core';
import type { FlatRoute } from '../routing/routes.ts';
import { UserMenu } from './UserMenu.tsx';
import { Icon } from '../ui/Icon.tsx';
import { useStore } from '../state/use-store.ts';
import { $drawerOpen, $mobile, $sidebarOpen, toggleSidebar } from '../state/ui.ts';

/** Top bar: sidebar toggle, breadcrumb (mobile: the parent title, SPEC §2), user menu. */
export function TopBar({ route }: { route: FlatRoute }) {
  const mobile = useStore($mobile);
  const drawer = useStore($drawerOpen);
  const open = useStore($sidebarOpen);
  const expanded = mobile ? drawer : open;
  const trail = mobile ? [route.parent ?? route] : route.parent ? [route.parent, route] : [route];
  return (
    <header className="topbar">
      <button
        type="button"
        className="icon-button"
        aria-controls="sidebar"
        aria-expanded={expanded}
        aria-label={i18n._('layout.toggleMenu')}
        onClick={toggleSidebar}
      >
        <Icon name="menu" />
      </button>
      <nav className="breadcrumb" aria-label={i18n._('layout.breadcrumb')}>
        <ol>
          {trail.map((r, i) => (
            <li key={r.path} aria-current={i === trail.length - 1 ? 'page' : undefined}>
              {i18n._(r.title)}
            </li>
          ))}
        </ol>
      </nav>
      <UserMenu />
    </header>
  );
}
