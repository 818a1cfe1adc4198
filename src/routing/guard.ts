// The part of the route guard (SPEC §2) the login page needs: without a
// session only /login and /test open; anything else asks to sign in first
// and comes back after. The rest (the routes table, groups, 404) is in
// routes.ts, which ships with the signed-in layout, not on the login path.
// Plain data and functions (no component code), below the screens: the
// sign-in and activation screens send the visitor on with it, and the bench
// reads the routes table in Node through routes.ts, which builds on this.
import type { IconName } from '../ui/Icon.tsx';

export interface RouteDef {
  /** Full path. */
  path: string;
  /** Message id of the title (sidebar, breadcrumb, document title). */
  title: string;
  /** The key of the device function list (`funs`) the sidebar requires for this entry (top-level entries use their own key). */
  fun?: string;
  icon?: IconName;
  children?: RouteDef[];
  /** Reachable by URL but not listed in the sidebar. */
  hidden?: boolean;
}

export interface FlatRoute extends RouteDef {
  parent?: RouteDef;
  /** Rendered inside the sidebar layout. */
  inLayout: boolean;
}

export type Resolution = { redirect: string } | { route: FlatRoute };

/** SPEC §2: without a token only these may be opened. */
export const OPEN_WITHOUT_TOKEN: readonly FlatRoute[] = [
  { path: '/login', title: /*i18n*/ 'login.route', hidden: true, inLayout: false },
  { path: '/test', title: /*i18n*/ 'route.test', hidden: true, inLayout: false },
];

/** A path without its trailing slashes ("/" stays). */
export const trimPath = (pathname: string) => (pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname);

/** Where a visitor without a session goes: an open route, or sign-in and back. */
export function guestRoute(pathname: string, search: string): Resolution {
  const path = trimPath(pathname);
  const open = OPEN_WITHOUT_TOKEN.find((r) => r.path === path);
  if (open) return { route: open };
  const wanted = path + (search && search !== '?' ? (search.startsWith('?') ? search : `?${search}`) : '');
  return { redirect: `/login?redirect=${encodeURIComponent(wanted)}` };
}

/** Where a signed-in visitor lands (SPEC §2): / when the function list has a user entry, else /network. */
export function homePath(funs: readonly string[]): string {
  return funs.includes('user') ? '/' : '/network';
}

/** Only same-site paths may be returned to after sign-in (no open redirect). */
export function safeRedirect(target: string | null | undefined): string | undefined {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return undefined;
  return target;
}
