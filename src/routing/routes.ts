// The routes table (SPEC §2). One table drives the router, the route guard,
// the sidebar (filtered by the device function list), the breadcrumb and the
// page titles. To add a screen, add an entry here and its component to
// src/screens/index.ts (screens inside the layout) or src/shell/SignedIn.tsx
// (standalone). Data and rules only, so screens may read it too; what binds
// a route to its component is above the screens, in src/shell/.
// This file ships with the signed-in layout; the login page has guard.ts.
import { OPEN_WITHOUT_TOKEN, guestRoute, homePath, trimPath, type FlatRoute, type Resolution, type RouteDef } from './guard.ts';

export type { FlatRoute, Resolution, RouteDef };

function leaf(path: string, title: string, fun?: string, hidden?: boolean): RouteDef {
  return { path, title, fun, hidden };
}

/** Screens inside the layout, in sidebar order. */
export const MENU: RouteDef[] = [
  {
    path: '/user',
    title: /*i18n*/ 'route.user',
    fun: 'user',
    icon: 'user',
    children: [
      leaf('/user/userList', /*i18n*/ 'route.userList'),
      leaf('/user/userEdit', /*i18n*/ 'route.userEdit', undefined, true),
      leaf('/user/addUser', /*i18n*/ 'route.addUser', undefined, true),
      leaf('/user/identify', /*i18n*/ 'route.identify'),
      leaf('/user/fingerprint', /*i18n*/ 'route.fingerprint', 'fingerprint'),
    ],
  },
  {
    path: '/network',
    title: /*i18n*/ 'route.network',
    fun: 'network',
    icon: 'network',
    children: [
      leaf('/network/internet', /*i18n*/ 'route.internet'),
      leaf('/network/ethernet', /*i18n*/ 'route.ethernet'),
      leaf('/network/wirless', /*i18n*/ 'route.wirless', 'wifi'),
      leaf('/network/wirless/chooseWIFI', /*i18n*/ 'route.chooseWIFI', 'wifi', true),
      leaf('/network/wirless/addWIFI', /*i18n*/ 'route.addWIFI', 'wifi', true),
      leaf('/network/commMode', /*i18n*/ 'route.commMode'),
      leaf('/network/securityOne', /*i18n*/ 'route.securityOne'),
      leaf('/network/cloud', /*i18n*/ 'route.cloud', 'cloud'),
      leaf('/network/bluetooth', /*i18n*/ 'route.bluetooth', 'bluetooth'),
      leaf('/network/mqtt', /*i18n*/ 'route.mqtt', 'mqtt'),
    ],
  },
  {
    path: '/basicSetting',
    title: /*i18n*/ 'route.basicSetting',
    fun: 'basicSetting',
    icon: 'settings',
    children: [
      leaf('/basicSetting/systemInfo', /*i18n*/ 'route.systemInfo'),
      leaf('/basicSetting/device', /*i18n*/ 'route.device'),
      leaf('/basicSetting/display', /*i18n*/ 'route.display'),
      leaf('/basicSetting/identifyMode', /*i18n*/ 'route.identifyMode'),
      leaf('/basicSetting/fingerPrint', /*i18n*/ 'route.fingerPrint', 'fingerprint'),
      leaf('/basicSetting/attendance', /*i18n*/ 'route.attendance'),
      leaf('/basicSetting/timeSetting', /*i18n*/ 'route.timeSetting'),
      leaf('/basicSetting/dst', /*i18n*/ 'route.dst'),
      leaf('/basicSetting/statusChange', /*i18n*/ 'route.statusChange'),
      leaf('/basicSetting/print', /*i18n*/ 'route.print', 'print'),
      leaf('/basicSetting/applyStatus', /*i18n*/ 'route.applyStatus'),
      leaf('/basicSetting/wiganPairing', /*i18n*/ 'route.wiganPairing', 'wiegand'),
      leaf('/basicSetting/workMode', /*i18n*/ 'route.workMode'),
      leaf('/basicSetting/authorizationMode', /*i18n*/ 'route.authorizationMode'),
    ],
  },
  {
    path: '/AccSetting',
    title: /*i18n*/ 'route.AccSetting',
    fun: 'AccSetting',
    icon: 'lock',
    children: [
      leaf('/AccSetting/zoneSetting', /*i18n*/ 'route.zoneSetting'),
      leaf('/AccSetting/workGroup', /*i18n*/ 'route.workGroup'),
      leaf('/AccSetting/alwaysOpen', /*i18n*/ 'route.alwaysOpen'),
      leaf('/AccSetting/alwaysClose', /*i18n*/ 'route.alwaysClose'),
      leaf('/AccSetting/door', /*i18n*/ 'route.door', 'door'),
    ],
  },
  {
    path: '/advSetting',
    title: /*i18n*/ 'route.advSetting',
    fun: 'advSetting',
    icon: 'tools',
    children: [
      leaf('/advSetting/recordList', /*i18n*/ 'route.recordList'),
      leaf('/advSetting/thermometry', /*i18n*/ 'route.thermometry', 'thermometry'),
      leaf('/advSetting/report', /*i18n*/ 'route.report'),
      leaf('/advSetting/liveEvents', /*i18n*/ 'route.liveEvents'),
      leaf('/advSetting/operationLog', /*i18n*/ 'route.opLog'),
      leaf('/advSetting/sessions', /*i18n*/ 'route.sessions'),
      leaf('/advSetting/access', /*i18n*/ 'route.access'),
      leaf('/advSetting/timezone', /*i18n*/ 'route.timezone'),
      leaf('/advSetting/group', /*i18n*/ 'route.group'),
      leaf('/advSetting/shifts', /*i18n*/ 'route.shifts'),
      leaf('/advSetting/card', /*i18n*/ 'route.card'),
      leaf('/advSetting/initCard', /*i18n*/ 'route.initCard'),
      leaf('/advSetting/firmwareUpgrade', /*i18n*/ 'route.firmwareUpgrade'),
      leaf('/advSetting/initialization', /*i18n*/ 'route.initialization'),
      leaf('/advSetting/restart', /*i18n*/ 'route.restart'),
      leaf('/advSetting/backup', /*i18n*/ 'route.backup'),
    ],
  },
];

/** Hidden screens outside the layout (SPEC §2); the two open without a token are in guard.ts. */
export const STANDALONE: RouteDef[] = [
  ...OPEN_WITHOUT_TOKEN,
  leaf('/404', /*i18n*/ 'notFound.title', undefined, true),
  leaf('/snkey', /*i18n*/ 'route.snkey', undefined, true),
  leaf('/up', /*i18n*/ 'route.up', undefined, true),
  leaf('/cmd', /*i18n*/ 'route.cmd', undefined, true),
  // The activation step: the factory credential's session chooses the password here (screens/Activate.tsx).
  leaf('/activate', /*i18n*/ 'act.title', undefined, true),
];

function flatten(): Map<string, FlatRoute> {
  const map = new Map<string, FlatRoute>();
  for (const group of MENU) {
    map.set(group.path, { ...group, inLayout: true });
    for (const child of group.children ?? []) map.set(child.path, { ...child, parent: group, inLayout: true });
  }
  for (const r of STANDALONE) map.set(r.path, { ...r, inLayout: false });
  return map;
}

export const ROUTES: ReadonlyMap<string, FlatRoute> = flatten();

/** Does the device function list allow this sidebar entry? */
export function allowedBy(route: RouteDef, funs: readonly string[]): boolean {
  return !route.fun || funs.includes(route.fun);
}

/** Sidebar entries for a function list: top-level entries only if listed (SPEC §2 Layout). */
export function visibleMenu(funs: readonly string[]): RouteDef[] {
  return MENU.filter((g) => allowedBy(g, funs)).map((g) => ({
    ...g,
    children: g.children?.filter((c) => !c.hidden && allowedBy(c, funs)),
  }));
}

/**
 * The route guard (SPEC §2) as a pure function of where the visitor is going
 * and whether they hold a session.
 */
export function resolveRoute(
  pathname: string,
  search: string,
  session: { funs: readonly string[] } | null,
): Resolution {
  if (!session) return guestRoute(pathname, search);
  const path = trimPath(pathname);
  if (path === '/login') return { redirect: homePath(session.funs) };
  if (path === '/') return { redirect: '/user' };
  const route = ROUTES.get(path);
  if (!route) return { redirect: '/404' };
  if (route.children?.length) {
    // A group opens its first screen the device supports (SPEC §2: /user -> /user/userList).
    const first = route.children.find((c) => !c.hidden && allowedBy(c, session.funs)) ?? route.children[0];
    return { redirect: first.path };
  }
  if (path !== pathname) return { redirect: path };
  return { route };
}
