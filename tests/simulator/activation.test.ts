// Issue 23 on the simulated terminal: the factory state and activation (no
// universal password in service), the idle-session setting, and whom the
// terminal answers (Host allow-list, Origin check). Over real HTTP.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type Simulator } from '../../simulator/server.ts';
import { loadModel } from '../../simulator/model.ts';
import { weakness } from '../../simulator/activation.ts';
import { ACTIVATE_FIRST, WEAK_PASSWORD } from '../../contract/codes.ts';
import { hostAllowed, originAllowed } from '../../build/serving.ts';
import { callSimulator } from '../support/helpers.ts';
import { TEST_ADMIN } from '../../hil/admin.ts';
import { raw as rawHttp } from '../support/raw-http.ts';

const tmp = () => mkdtempSync(join(tmpdir(), 'activation-'));
const FACTORY = loadModel('default').admin;
const SERIAL = 'T10-2026-482917';

/** One request with the headers given as they are (fetch may not set Host), its body as text. */
async function raw(url: string, method: string, headers: Record<string, string>, body?: string): Promise<{ status: number; type: string; text: string }> {
  const r = await rawHttp(url, { method, headers, body });
  return { status: r.status, type: String(r.headers['content-type']), text: r.body.toString('utf8') };
}

// ---------------------------------------------------------------------------
const act = suite('activation');
let sim: Simulator;
let dir: string;
act.before.each(async () => {
  dir = tmp();
  sim = await startSimulator({ storeFile: join(dir, 'store.json'), model: loadModel('default', { Serial: SERIAL, seedUsers: 0, seedRecords: 0 }) });
});
act.after.each(() => sim.close());
const call = (name: Parameters<typeof callSimulator>[1], params: Record<string, unknown> = {}, token?: string) => callSimulator(sim.url, name, params, token);

act('the weak-password rules', () => {
  for (const pw of [FACTORY.password, '000000', '777777', '012345', '456789', '890123', '901234', '987654', '543210', '109876', '482917', '026482'])
    assert.ok(weakness(pw, FACTORY.password, SERIAL), pw);
  for (const pw of [TEST_ADMIN.password, '583920', '135790', '112233', '482916']) assert.is(weakness(pw, FACTORY.password, SERIAL), null, pw);
});

act('the factory credential opens a session that may only activate; every other call answers 40105', async () => {
  const login = await call('chklogin', FACTORY);
  assert.is(login.retvalue, 0);
  assert.is(login.activate, 1);
  const token = login.token as string;
  for (const name of ['GetDeviceFunList', 'SetInfoParam', 'SetRestParam', 'userlist', 'RestartMachine', 'InitMachine'] as const)
    assert.equal(await call(name, name === 'userlist' ? { Page: 1, PageSize: 10 } : {}, token), { retvalue: ACTIVATE_FIRST, msg: 'msg.activateFirst' }, name);
  assert.equal(await call('EditPwd', { userid: 'admin', oldpwd: FACTORY.password, newpwd: '583920' }, token), { retvalue: ACTIVATE_FIRST, msg: 'msg.activateFirst' }, 'not around Activate');
  assert.not.ok(sim.store.get().admin.activated, 'still in the factory state');
});

act('a weak or malformed new password is refused at its field and changes nothing', async () => {
  const token = (await call('chklogin', FACTORY)).token as string;
  for (const pw of [FACTORY.password, '111111', '234567', '876543', '482917'])
    assert.equal(await call('Activate', { newpwd: pw }, token), { retvalue: WEAK_PASSWORD, msg: 'msg.weakPassword', field: 'newpwd' }, pw);
  assert.equal(await call('Activate', { newpwd: '12345' }, token), { retvalue: 40202, msg: 'err.40202', field: 'newpwd' });
  assert.equal(await call('Activate', {}, token), { retvalue: 10003, msg: 'err.10003', field: 'newpwd' });
  assert.equal(await call('Activate', { newpwd: '583920' }), { retvalue: 10002, msg: 'err.10002' }, 'needs the session');
  assert.equal(sim.store.get().admin, FACTORY, 'the store is as it was');
});

act('activation: the session goes on as a full one; the factory credential is gone, across a restart too', async () => {
  const first = (await call('chklogin', FACTORY)).token as string;
  const token = (await call('chklogin', FACTORY)).token as string;
  assert.equal(await call('Activate', { newpwd: '583920' }, token), { retvalue: 0 });
  assert.is((await call('GetDeviceFunList', {}, token)).retvalue, 0, 'the same session, now full');
  assert.equal(await call('GetDeviceFunList', {}, first), { retvalue: 10002, msg: 'err.10002' }, 'another activation session ended');
  assert.equal(await call('Activate', { newpwd: '135790' }, token), { retvalue: 10001, msg: 'err.10001' }, 'only once');
  assert.is((await call('chklogin', FACTORY)).retvalue, 40302);
  const stored = JSON.parse(readFileSync(join(dir, 'store.json'), 'utf8')).admin;
  assert.equal(stored, { username: 'admin', password: '583920', activated: true });
  await sim.restart();
  const again = await call('chklogin', { username: 'admin', password: '583920' });
  assert.is(again.retvalue, 0);
  assert.is(again.activate, undefined, 'a full session');
  // No way back to a weak password through the password dialog either.
  for (const pw of [FACTORY.password, '999999', '456789'])
    assert.equal(await call('EditPwd', { userid: 'admin', oldpwd: '583920', newpwd: pw }, again.token as string), { retvalue: WEAK_PASSWORD, msg: 'msg.weakPassword', field: 'newpwd' }, pw);
  assert.is(sim.store.get().admin.password, '583920');
});

act.run();

// ---------------------------------------------------------------------------
const idle = suite('idle sessions (RestParam.IdleMinutes)');

idle('10 minutes at the factory; the administrator sets 1 to 60; a session idle longer ends with 40104', async () => {
  let clock = Date.now();
  const s = await startSimulator({ activated: TEST_ADMIN.password, storeFile: join(tmp(), 'store.json'), now: () => clock, model: loadModel('default', { seedUsers: 0, seedRecords: 0 }) });
  try {
    const login = async () => (await callSimulator(s.url, 'chklogin', TEST_ADMIN)).token as string;
    let token = await login();
    const rest = await callSimulator(s.url, 'SetRestParam', {}, token);
    assert.is(rest.IdleMinutes, 10);
    clock += 10 * 60_000 - 1000;
    assert.is((await callSimulator(s.url, 'GetDeviceFunList', {}, token)).retvalue, 0, 'used within 10 minutes');
    clock += 10 * 60_000 + 1000;
    assert.equal(await callSimulator(s.url, 'GetDeviceFunList', {}, token), { retvalue: 40104, msg: 'err.40104' }, 'idle over 10 minutes');
    token = await login();
    const { retvalue: _, ...fields } = rest;
    for (const bad of [0, 61, 1.5]) assert.equal(await callSimulator(s.url, 'GetRestParam', { ...fields, IdleMinutes: bad }, token), { retvalue: 10005, msg: 'err.10005', field: 'IdleMinutes' }, String(bad));
    assert.equal(await callSimulator(s.url, 'GetRestParam', { ...fields, IdleMinutes: 1 }, token), { retvalue: 0 });
    clock += 59_000;
    assert.is((await callSimulator(s.url, 'GetDeviceFunList', {}, token)).retvalue, 0);
    clock += 61_000;
    assert.is((await callSimulator(s.url, 'GetDeviceFunList', {}, token)).retvalue, 40104, 'idle over the minute set');
  } finally {
    await s.close();
  }
});

idle.run();

// ---------------------------------------------------------------------------
const who = suite('whom the terminal answers (Host, Origin)');
let s: Simulator;
let port: string;
who.before(async () => {
  s = await startSimulator({ activated: TEST_ADMIN.password, storeFile: join(tmp(), 'store.json'), model: loadModel('default', { seedUsers: 0, seedRecords: 0 }) });
  port = new URL(s.url).port;
});
who.after(() => s.close());
const login = JSON.stringify(TEST_ADMIN);
const json = { 'Content-Type': 'application/json' };

who('the rules', () => {
  for (const h of ['192.168.1.5', '192.168.1.5:8080', '[::1]', '[fe80::1%25eth0]:80', 'localhost', 'LOCALHOST:80', 'door.example', 'Door.Example.']) assert.ok(hostAllowed(h, ['door.example']), h);
  for (const h of [undefined, '', 'rebind.attacker.example', '192.168.1.5.nip.io', 'localhost.attacker.example', '::1', '[::1', 'door.example:80:80', '256.1.1.1']) assert.not.ok(hostAllowed(h, ['door.example']), String(h));
  assert.ok(originAllowed(undefined, '10.0.0.2'));
  for (const [o, h] of [['http://10.0.0.2', '10.0.0.2'], ['https://10.0.0.2:8443', '10.0.0.2:8443'], ['https://10.0.0.2', '10.0.0.2:443'], ['http://localhost:8080', 'localhost:8080']]) assert.ok(originAllowed(o, h), `${o} ${h}`);
  for (const [o, h] of [['http://evil.example', '10.0.0.2'], ['null', '10.0.0.2'], ['http://10.0.0.2:81', '10.0.0.2'], ['file://', '10.0.0.2'], ['http://10.0.0.2', undefined]]) assert.not.ok(originAllowed(o, h), `${o} ${h}`);
});

who('a foreign name gets 421 and a short page, for the console and the API alike', async () => {
  for (const host of ['rebind.attacker.example', `rebind.test:${port}`]) {
    const page = await raw(`${s.url}/`, 'GET', { Host: host });
    assert.is(page.status, 421, host);
    assert.match(page.type, /^text\/plain/);
    assert.match(page.text, /does not answer to that name/);
    const api = await raw(`${s.url}/goform/chklogin`, 'POST', { Host: host, ...json }, login);
    assert.is(api.status, 421, 'no sign-in under a rebound name');
    assert.not.match(api.text, /token/);
  }
  for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, 'localhost', `[::1]:${port}`]) assert.is((await raw(`${s.url}/goform/chklogin`, 'POST', { Host: host, ...json }, login)).status, 200, host);
});

who('a name the administrator adds is answered; removed, it is refused again', async () => {
  const token = (await callSimulator(s.url, 'chklogin', TEST_ADMIN)).token as string;
  const { retvalue: _, ...rest } = await callSimulator(s.url, 'SetRestParam', {}, token);
  assert.is(rest.HostNames, '');
  for (const bad of ['door.example,other', ' door.example', 'door..example', '-door.example', 'a b c d e f g h i', `${'a'.repeat(64)}.example`])
    assert.equal(await callSimulator(s.url, 'GetRestParam', { ...rest, HostNames: bad }, token), { retvalue: 10005, msg: 'err.10005', field: 'HostNames' }, bad);
  assert.equal(await callSimulator(s.url, 'GetRestParam', { ...rest, HostNames: 'door-3.example terminal.lan' }, token), { retvalue: 0 });
  assert.is((await raw(`${s.url}/goform/GetDeviceFunList`, 'GET', { Host: `terminal.lan:${port}` })).status, 200);
  assert.is((await raw(`${s.url}/goform/chklogin`, 'POST', { Host: 'DOOR-3.example', ...json }, login)).status, 200);
  assert.is((await raw(`${s.url}/`, 'GET', { Host: 'other.lan' })).status, 421);
  assert.equal(await callSimulator(s.url, 'GetRestParam', { ...rest, HostNames: '' }, token), { retvalue: 0 });
  assert.is((await raw(`${s.url}/`, 'GET', { Host: 'terminal.lan' })).status, 421);
});

who('a call from another site (Origin not the Host) gets 403 before it is read; no Origin is judged by its token', async () => {
  const host = `127.0.0.1:${port}`;
  for (const origin of ['http://evil.example', 'null', `http://127.0.0.1:${Number(port) + 1}`]) {
    const r = await raw(`${s.url}/goform/chklogin`, 'POST', { Host: host, Origin: origin, 'Content-Type': 'text/plain' }, login);
    assert.is(r.status, 403, origin);
    assert.match(r.text, /another site/);
  }
  const same = await raw(`${s.url}/goform/chklogin`, 'POST', { Host: host, Origin: `http://${host}`, ...json }, login);
  assert.is(same.status, 200);
  assert.is(JSON.parse(same.text).retvalue, 0);
  const none = await raw(`${s.url}/goform/GetDeviceFunList`, 'GET', { Host: host });
  assert.is(JSON.parse(none.text).retvalue, 10002, 'no Origin, no token: judged by the token');
  // A file is not a call: a page's own module scripts may carry Origin.
  assert.is((await raw(`${s.url}/`, 'GET', { Host: host, Origin: 'http://evil.example' })).status, 503, 'no site installed here, but not refused for its Origin');
});

who.run();
