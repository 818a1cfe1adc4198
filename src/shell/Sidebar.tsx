import { useState } from 'react';
import { Link } from 'wouter';
import { i18n } from '@lingui/core';
import { visibleMenu, type FlatRoute } from '../routing/routes.ts';
import { InfoDialog } from './InfoDialog.tsx';
import { Icon } from '../ui/Icon.tsx';
import { useStore } from '../state/use-store.ts';
import { $session } from '../state/session.ts';
import { $drawerOpen, $mobile, $sidebarOpen } from '../state/ui.ts';
import { brand } from '../brand.ts';

export function Sidebar({ route }: { route: FlatRoute }) {
  const session = useStore($session);
  const open = useStore($sidebarOpen);
  const drawer = useStore($drawerOpen);
  const mobile = useStore($mobile);
  const expanded = open || mobile;
  const [openGroup, setOpenGroup] = useState<string | undefined>(route.parent?.path);
  const [info, setInfo] = useState(false);
  const menu = visibleMenu(session?.funs ?? []);
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
      <button type="button" className="info-button" onClick={() => setInfo(true)} title={i18n._('info.title')}>
        <Icon name="info" />
        <span className="label">{i18n._('info.title')}</span>
      </button>
      <InfoDialog open={info} onClose={() => setInfo(false)} />
    </aside>
  );
}
