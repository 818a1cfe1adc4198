// Session cookies, forced logout, sidebar cookie, viewport, function-list refresh.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { captureTimers } from '../support/helpers.ts';
import { $session, clearSession, forceLogout, page, setFuns, signIn } from '../../src/state/session.ts';
import { FUNS_COOKIE, NAME_KEY, TOKEN_COOKIE } from '../../src/state/keys.ts';
import { readCookie, writeCookie } from '../../src/state/cookies.ts';
import { $drawerOpen, $mobile, $sidebarOpen, SIDEBAR_COOKIE, navigated, toggleSidebar } from '../../src/state/ui.ts';
import { FUN_REFRESH_MS, FUN_REFRESH_TIMES, startFunsRefresh } from '../../src/api/funs.ts';

test('sign-in stores the token in Admin-Token and the function list in sever-role', () => {
  signIn('abc', 'admin', ['user', 'network']);
  assert.is(readCookie(TOKEN_COOKIE), 'abc');
  assert.equal(JSON.parse(readCookie(FUNS_COOKIE)!), ['user', 'network']);
  assert.is(localStorage.getItem(NAME_KEY), 'admin');
  assert.equal($session.get(), { token: 'abc', name: 'admin', funs: ['user', 'network'] });
});

test('a refreshed function list replaces the stored one', () => {
  signIn('abc', 'admin', ['user']);
  setFuns(['network']);
  assert.equal($session.get()?.funs, ['network']);
  assert.equal(JSON.parse(readCookie(FUNS_COOKIE)!), ['network']);
});

test('logout clears the token and the function list', () => {
  signIn('abc', 'admin', ['user']);
  clearSession();
  assert.is($session.get(), null);
  assert.is(readCookie(TOKEN_COOKIE), undefined);
  assert.is(readCookie(FUNS_COOKIE), undefined);
});

test('forced logout clears at once and reloads after the delay', () => {
  let reloads = 0;
  page.reload = () => void reloads++;
  const clock = captureTimers();
  try {
    signIn('abc', 'admin', ['user']);
    forceLogout(1000);
    assert.is($session.get(), null);
    assert.is(reloads, 0);
    clock.run(1000);
    assert.is(reloads, 1);
  } finally {
    clock.restore();
  }
});

test('cookie values survive characters that need encoding', () => {
  writeCookie('x', 'a b;c=d');
  assert.is(readCookie('x'), 'a b;c=d');
});

test('the sidebar state is remembered in a cookie (desktop)', () => {
  $mobile.set(false);
  $sidebarOpen.set(true);
  toggleSidebar();
  assert.is($sidebarOpen.get(), false);
  assert.is(readCookie(SIDEBAR_COOKIE), '0');
  toggleSidebar();
  assert.is(readCookie(SIDEBAR_COOKIE), '1');
});

test('on mobile the toggle opens a drawer that closes on navigation and is not remembered', () => {
  $mobile.set(true);
  writeCookie(SIDEBAR_COOKIE, '1');
  toggleSidebar();
  assert.is($drawerOpen.get(), true);
  assert.is(readCookie(SIDEBAR_COOKIE), '1');
  navigated();
  assert.is($drawerOpen.get(), false);
  $mobile.set(false);
});

test('the function list is fetched on load, then every 30 s, up to 10 more times', () => {
  const real = globalThis.setInterval;
  const realClear = globalThis.clearInterval;
  let tick: (() => void) | undefined;
  let period = 0;
  let cleared = false;
  globalThis.setInterval = ((fn: () => void, ms: number) => {
    tick = fn;
    period = ms;
    return 1;
  }) as unknown as typeof setInterval;
  globalThis.clearInterval = (() => {
    cleared = true;
  }) as typeof clearInterval;
  try {
    let calls = 0;
    startFunsRefresh(() => calls++);
    assert.is(calls, 1, 'on load');
    assert.is(period, 30_000);
    assert.is(FUN_REFRESH_MS, 30_000);
    for (let i = 0; i < FUN_REFRESH_TIMES && !cleared; i++) tick!();
    assert.is(calls, 11, 'ten more');
    assert.ok(cleared, 'then it stops');
  } finally {
    globalThis.setInterval = real;
    globalThis.clearInterval = realClear;
  }
});

test.run();
