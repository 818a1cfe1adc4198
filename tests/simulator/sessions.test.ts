// Issue 25 §4 on the simulated terminal, over HTTP: the sessions it holds
// (SetSessionList) and signing one out (GetSessionLogout): the ended token's
// next call answers 40104 once, then 10002.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type Simulator } from '../../simulator/server.ts';
import { loadModel } from '../../simulator/model.ts';
import { ACTIVATE_FIRST } from '../../contract/codes.ts';
import { ENDED_TOKENS_KEPT } from '../../contract/sessions.ts';
import { callSimulator } from '../support/helpers.ts';
import { TEST_ADMIN } from '../../hil/admin.ts';

type Entry = { Id: string; User: string; Address: string; Since: string; LastActive: string; Current: number };

const test = suite('sessions');
let sim: Simulator;
// The terminal's clock: 2026-01-15 10:00:00 UTC, 11:00 in the factory zone (Europe/Berlin, winter).
let clock = Date.UTC(2026, 0, 15, 10, 0, 0);
const start = (over: Parameters<typeof loadModel>[1] = {}, factory = false) =>
  startSimulator({ storeFile: join(mkdtempSync(join(tmpdir(), 'sessions-')), 'store.json'), now: () => clock, activated: factory ? undefined : TEST_ADMIN.password, model: loadModel('default', { seedUsers: 0, seedRecords: 0, restartMs: 0, ...over }) });
test.before.each(async () => {
  clock = Date.UTC(2026, 0, 15, 10, 0, 0);
  sim = await start();
});
test.after.each(() => sim.close());
const call = (name: Parameters<typeof callSimulator>[1], params: Record<string, unknown> = {}, token?: string) => callSimulator(sim.url, name, params, token);
const signIn = async () => (await call('chklogin', TEST_ADMIN)).token as string;
const list = async (token: string) => {
  const r = await call('SetSessionList', {}, token);
  assert.is(r.retvalue, 0, JSON.stringify(r));
  return r.List as Entry[];
};

test('two sign-ins are listed, oldest first, with account, address and times; Current marks the caller; the Id is not the token', async () => {
  const a = await signIn();
  clock += 65_000;
  const b = await signIn();
  clock += 5_000;
  const seenByA = await list(a);
  assert.is(seenByA.length, 2);
  assert.equal(seenByA.map((s) => s.Current), [1, 0], "A's own first");
  assert.equal(seenByA.map((s) => s.User), ['admin', 'admin']);
  for (const s of seenByA) {
    assert.match(s.Address, /127\.0\.0\.1$/, 'the address it signed in from');
    assert.ok(s.Id && s.Id !== a && s.Id !== b && !a.includes(s.Id) && !b.includes(s.Id), 'an Id of its own, not the token nor part of it');
  }
  assert.is.not(seenByA[0].Id, seenByA[1].Id);
  // Device time in the device's zone: A signed in at 11:00:00 and is using the list now (11:01:10); B signed in at 11:01:05.
  assert.equal(
    seenByA.map((s) => [s.Since, s.LastActive]),
    [
      ['2026-01-15 11:00:00', '2026-01-15 11:01:10'],
      ['2026-01-15 11:01:05', '2026-01-15 11:01:05'],
    ],
  );
  const seenByB = await list(b);
  assert.equal(seenByB.map((s) => [s.Id, s.Current]), [[seenByA[0].Id, 0], [seenByA[1].Id, 1]], 'the same Ids; B is current for B');
  // Another zone moves the times shown, not the sessions.
  const dt = await call('SetDateTimeParam', {}, a);
  assert.is((await call('GetDateTimeParam', { ...dt, retvalue: undefined, UtcOffset: undefined, TimeZone: 'Asia/Tokyo' }, a)).retvalue, 0);
  assert.is((await list(a))[1].Since, '2026-01-15 19:01:05');
});

test('GetSessionLogout ends another session: its next call 40104, then 10002; the list no longer has it; its Id is not reused', async () => {
  const a = await signIn();
  const b = await signIn();
  const other = (await list(a)).find((s) => !s.Current)!;
  assert.equal(await call('GetSessionLogout', { Id: other.Id }, a), { retvalue: 0 });
  assert.equal(await call('GetDeviceFunList', {}, b), { retvalue: 40104, msg: 'err.40104' }, 'the session-ended code, once');
  assert.equal(await call('GetDeviceFunList', {}, b), { retvalue: 10002, msg: 'err.10002' }, 'then unknown');
  assert.equal((await list(a)).map((s) => s.Current), [1]);
  assert.equal(await call('GetSessionLogout', { Id: other.Id }, a), { retvalue: 10005, msg: 'err.10005', field: 'Id' }, 'an ended Id is unknown');
  const c = await signIn();
  assert.ok(!(await list(c)).some((s) => s.Id === other.Id), 'a new session gets a new Id');
  assert.is((await call('GetDeviceFunList', {}, a)).retvalue, 0, 'the caller goes on');
});

test('ending its own session by Id works the same: success, then 40104, then 10002', async () => {
  const a = await signIn();
  const [own] = await list(a);
  assert.equal(await call('GetSessionLogout', { Id: own.Id }, a), { retvalue: 0 });
  assert.is((await call('SetSessionList', {}, a)).retvalue, 40104);
  assert.is((await call('SetSessionList', {}, a)).retvalue, 10002);
});

test('an unknown Id answers 10005, a missing one 10003, both naming Id; nothing ends', async () => {
  const a = await signIn();
  assert.equal(await call('GetSessionLogout', { Id: 'ffffffffffffffff' }, a), { retvalue: 10005, msg: 'err.10005', field: 'Id' });
  assert.equal(await call('GetSessionLogout', { Id: a }, a), { retvalue: 10005, msg: 'err.10005', field: 'Id' }, 'a token is not an Id');
  assert.equal(await call('GetSessionLogout', {}, a), { retvalue: 10003, msg: 'err.10003', field: 'Id' });
  assert.is((await list(a)).length, 1);
  assert.equal(await call('SetSessionList', {}), { retvalue: 10002, msg: 'err.10002' }, 'needs a session');
});

test(`the terminal remembers the last ${ENDED_TOKENS_KEPT} tokens it ended: an older one answers 10002 at once`, async () => {
  const a = await signIn();
  const others: string[] = [];
  for (let i = 0; i <= ENDED_TOKENS_KEPT; i++) others.push(await signIn());
  for (const s of await list(a)) if (!s.Current) assert.is((await call('GetSessionLogout', { Id: s.Id }, a)).retvalue, 0);
  assert.is((await call('GetDeviceFunList', {}, others[0])).retvalue, 10002, 'the first ended is forgotten');
  assert.is((await call('GetDeviceFunList', {}, others[1])).retvalue, 40104);
  assert.is((await call('GetDeviceFunList', {}, others[ENDED_TOKENS_KEPT])).retvalue, 40104);
});

test('a session idle past the limit is not listed; a restart empties the list and forgets ended tokens', async () => {
  await sim.close();
  sim = await start({ sessionIdleMs: 60_000 });
  const idle = await signIn();
  clock += 30_000;
  const a = await signIn();
  const b = await signIn();
  clock += 40_000;
  assert.is((await list(a)).length, 2, 'the one unused for 70 s is gone');
  assert.equal(await call('GetDeviceFunList', {}, idle), { retvalue: 40104, msg: 'err.40104' });
  const other = (await list(a)).find((s) => !s.Current)!;
  assert.is((await call('GetSessionLogout', { Id: other.Id }, a)).retvalue, 0);
  await sim.restart();
  assert.is((await call('GetDeviceFunList', {}, b)).retvalue, 10002, 'the restart forgot the ended token');
  assert.is((await call('SetSessionList', {}, a)).retvalue, 10002);
  assert.equal((await list(await signIn())).map((s) => s.Current), [1], 'only the new sign-in');
});

test('a session of the factory credential cannot list or end sessions (40105)', async () => {
  await sim.close();
  sim = await start({}, true);
  const token = (await call('chklogin', loadModel('default').admin)).token as string;
  assert.equal(await call('SetSessionList', {}, token), { retvalue: ACTIVATE_FIRST, msg: 'msg.activateFirst' });
  assert.equal(await call('GetSessionLogout', { Id: 'ffffffffffffffff' }, token), { retvalue: ACTIVATE_FIRST, msg: 'msg.activateFirst' });
});

test.run();
