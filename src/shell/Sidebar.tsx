import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { i18n } from '@lingui/core';
import { visibleMenu, type FlatRoute } from '../routing/routes.ts';
import { InfoDialog } from './InfoDialog.tsx';
import { Icon } from '../ui/Icon.tsx';
import { useStore } from '../state/use-store.ts';
import { $session } from '../state/session.ts';
import { $drawerOpen, $mobile, $sidebarOpen } from '../state/ui.ts';
import { brand } from '../brand.ts';
import { $door, doorAlert, readDoor } from '../api/door.ts';

export function Sidebar({ route }: { route: FlatRoute }) {
  const session = useStore($session);
  const open = useStore($sidebarOpen);
  const drawer = useStore($drawerOpen);
  const mobile = useStore($mobile);
  const expanded = open || mobile;
  const [openGroup, setOpenGroup] = useState<string | undefined>(route.parent?.path);
  const [info, setInfo] = useState(false);
  const menu = visibleMenu(session?.funs ?? []);
  // The door, read again as each page opens where the menu has it (api/door.ts says why not live here).
  const door = menu.some((g) => g.children?.some((c) => c.fun == 'door'));
  useEffect(() => void (door && readDoor()), [route.path, door]);
  const state = useStore($door);
  const alert = door && doorAlert(state);
  return (
    <aside className="sidebar" id="sidebar" hidden={mobile && !drawer}>
      <div className="brand">{brand.logo ? <img src={brand.logo} alt={brand.title} /> : brand.title}</div>
      <nav aria-label={i18n._('layout.menu')}>
        <ul className="menu">
          {menu.map((group) => {
            const isOpen = expanded && openGroup === group.path;
            const current = route.parent?.path === group.path;
            return (
              <li key={group.path} className={current ? 'group current' : 'group'}>
                <button
                  type="button"
                  className="group-button"
                  aria-expanded={expanded ? isOpen : undefined}
                  title={expanded ? undefined : i18n._(group.title)}
                  onClick={() => {
                    if (!expanded) $sidebarOpen.set(true);
                    setOpenGroup(isOpen ? undefined : group.path);
                  }}
                >
                  {group.icon && <Icon name={group.icon} />}
                  <span className="label">{i18n._(group.title)}</span>
                </button>
                {isOpen && (
                  <ul>
                    {group.children?.map((item) => (
                      <li key={item.path}>
                        <Link href={item.path} aria-current={item.path === route.path ? 'page' : undefined}>
                          {i18n._(item.title)}
                        </Link>
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            );
          })}
        </ul>
      </nav>
      {alert && (
        <Link href="/AccSetting/door" className="info-button flag" title={expanded ? undefined : i18n._(alert)}>
          <Icon name="lock" />
          <span className="label">
            <b>{i18n._('route.door')}</b> {i18n._(alert)}
          </span>
        </Link>
      )}
      <button type="button" className="info-button" onClick={() => setInfo(true)} title={i18n._('info.title')}>
        <Icon name="info" />
        <span className="label">{i18n._('info.title')}</span>
      </button>
      <InfoDialog open={info} onClose={() => setInfo(false)} />
    </aside>
  );
}
