// Layout state (SPEC §2 Layout): sidebar open or collapsed, remembered in a
// cookie; mobile at a width of 850 px or less (SPEC §9).
import { atom } from 'nanostores';
import { readCookie, writeCookie } from './cookies.ts';

export const SIDEBAR_COOKIE = 'sidebarStatus';
export const MOBILE_QUERY = '(max-width: 850px)';

/** Desktop sidebar: expanded (true) or collapsed to icons (false). */
export const $sidebarOpen = atom(readCookie(SIDEBAR_COOKIE) !== '0');
/** Mobile drawer: shown or not; never remembered. */
export const $drawerOpen = atom(false);
export const $mobile = atom(false);

export function toggleSidebar(): void {
  if ($mobile.get()) {
    $drawerOpen.set(!$drawerOpen.get());
    return;
  }
  const open = !$sidebarOpen.get();
  $sidebarOpen.set(open);
  writeCookie(SIDEBAR_COOKIE, open ? '1' : '0');
}

/** Follow the viewport; phone mode puts a class on <body>. */
export function watchViewport(): () => void {
  const mq = matchMedia(MOBILE_QUERY);
  const apply = () => {
    $mobile.set(mq.matches);
    document.body.classList.toggle('mobile', mq.matches);
    if (!mq.matches) $drawerOpen.set(false);
  };
  apply();
  mq.addEventListener('change', apply);
  return () => mq.removeEventListener('change', apply);
}

/** SPEC §2: on mobile the sidebar closes on navigation. */
export function navigated(): void {
  if ($mobile.get()) $drawerOpen.set(false);
}
