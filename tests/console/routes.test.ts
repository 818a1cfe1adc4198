// SPEC §2 route guard and layout rules, through the one routes table.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SCREENS } from '../../src/screens/index.ts';
import { ROUTES, resolveRoute, visibleMenu } from '../../src/routing/routes.ts';
import { homePath, safeRedirect } from '../../src/routing/guard.ts';

const signedIn = (funs: string[] = ['user', 'network', 'basicSetting', 'AccSetting', 'advSetting']) => ({ funs });
const redirect = (r: ReturnType<typeof resolveRoute>) => ('redirect' in r ? r.redirect : undefined);
const route = (r: ReturnType<typeof resolveRoute>) => ('route' in r ? r.route.path : undefined);

test('without a token only /login and /test open', () => {
  assert.is(route(resolveRoute('/login', '', null)), '/login');
  assert.is(route(resolveRoute('/test', '', null)), '/test');
  for (const p of ['/', '/user/userList', '/404', '/snkey', '/network/mqtt', '/nowhere'])
    assert.ok(redirect(resolveRoute(p, '', null))?.startsWith('/login?redirect='), p);
});

test('the redirect parameter holds the wanted path and query', () => {
  const r = redirect(resolveRoute('/advSetting/recordList', 'from=2026-01-01&to=x', null))!;
  assert.is(new URLSearchParams(r.split('?')[1]).get('redirect'), '/advSetting/recordList?from=2026-01-01&to=x');
});

test('a signed-in visitor on /login goes to / with a user entry, else /network', () => {
  assert.is(redirect(resolveRoute('/login', '', signedIn(['user', 'network']))), '/');
  assert.is(redirect(resolveRoute('/login', '', signedIn(['network']))), '/network');
  assert.is(homePath(['basicSetting']), '/network');
});

test('/ -> /user -> /user/userList', () => {
  assert.is(redirect(resolveRoute('/', '', signedIn())), '/user');
  assert.is(redirect(resolveRoute('/user', '', signedIn())), '/user/userList');
});

test('a group opens its first screen the device supports', () => {
  assert.is(redirect(resolveRoute('/network', '', signedIn())), '/network/internet');
});

test('unknown paths go to /404', () => {
  assert.is(redirect(resolveRoute('/nope', '', signedIn())), '/404');
  assert.is(redirect(resolveRoute('/user/userList/extra', '', signedIn())), '/404');
  assert.is(route(resolveRoute('/404', '', signedIn())), '/404');
});

test('a trailing slash is tolerated', () => {
  assert.is(redirect(resolveRoute('/network/mqtt/', '', signedIn())), '/network/mqtt');
});

test('routes are not gated by the function list (SPEC §6): only the sidebar is', () => {
  assert.is(route(resolveRoute('/network/bluetooth', '', signedIn(['user']))), '/network/bluetooth');
});

test('sidebar: a top-level entry only if the function list contains it', () => {
  const keys = (funs: string[]) => visibleMenu(funs).map((g) => g.path);
  assert.equal(keys(['user', 'network', 'basicSetting', 'AccSetting', 'advSetting']), ['/user', '/network', '/basicSetting', '/AccSetting', '/advSetting']);
  assert.equal(keys(['network', 'advSetting']), ['/network', '/advSetting']);
  assert.equal(keys([]), []);
});

test('sidebar: feature entries follow their function keys; hidden routes never listed', () => {
  const net = (funs: string[]) => visibleMenu(['network', ...funs]).find((g) => g.path === '/network')!.children!.map((c) => c.path);
  assert.not.ok(net([]).includes('/network/bluetooth'));
  assert.ok(net(['bluetooth']).includes('/network/bluetooth'));
  assert.not.ok(net(['wifi']).includes('/network/wirless/chooseWIFI'), 'hidden');
  assert.ok(net(['wifi']).includes('/network/wirless'));
});

test('the table covers every SPEC §2 route', () => {
  const spec = [
    '/login', '/404', '/snkey', '/up', '/test', '/cmd',
    '/user/userList', '/user/userEdit', '/user/addUser', '/user/identify', '/user/fingerprint',
    '/network/internet', '/network/ethernet', '/network/wirless', '/network/wirless/chooseWIFI', '/network/wirless/addWIFI',
    '/network/commMode', '/network/securityOne', '/network/cloud', '/network/bluetooth', '/network/mqtt',
    ...['systemInfo', 'device', 'display', 'identifyMode', 'fingerPrint', 'attendance', 'timeSetting', 'dst', 'statusChange', 'print', 'applyStatus', 'wiganPairing', 'workMode', 'authorizationMode'].map((s) => `/basicSetting/${s}`),
    ...['zoneSetting', 'workGroup', 'alwaysOpen', 'alwaysClose'].map((s) => `/AccSetting/${s}`),
    ...['recordList', 'thermometry', 'report', 'initCard', 'firmwareUpgrade', 'initialization', 'restart', 'access', 'timezone', 'group', 'shifts', 'card'].map((s) => `/advSetting/${s}`),
  ];
  for (const p of spec) assert.ok(ROUTES.has(p), p);
  // Every built screen sits on a route of the table, inside the layout.
  const layoutRoutes = [...ROUTES.values()].filter((r) => r.inLayout);
  const byTitle = new Map(layoutRoutes.map((r) => [r.title, r]));
  assert.is(byTitle.size, layoutRoutes.length, 'each layout route has a title of its own (screens are keyed by it)');
  for (const t of Object.keys(SCREENS)) assert.ok(byTitle.get(t), `${t} is the title of a layout route`);
  // And every screen route of the layout has its screen (groups redirect to their first screen).
  for (const r of layoutRoutes) if (!r.children) assert.ok(Object.prototype.hasOwnProperty.call(SCREENS, r.title), `${r.path} has a screen`);
});

test('only same-site paths are returned to after sign-in', () => {
  assert.is(safeRedirect('/network/mqtt?x=1'), '/network/mqtt?x=1');
  assert.is(safeRedirect('//evil.example/'), undefined);
  assert.is(safeRedirect('https://evil.example/'), undefined);
  assert.is(safeRedirect('/\\evil.example'), undefined);
  assert.is(safeRedirect(null), undefined);
});

test.run();
