// docs/API.md, "What a device must refuse": each defect found by probing the
// simulated terminal from outside (issue 13 §1), as the request that found it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type Simulator } from '../../simulator/server.ts';
import { Store, removeLeftovers } from '../../simulator/store.ts';
import { LoginGuard } from '../../simulator/login-guard.ts';
import { realMoment } from '../../simulator/validate.ts';
import { LOGIN_LOCKED, LOGIN_LOCK_RULES, REQUEST_MAX_BYTES } from '../../contract/codes.ts';
import { CALLS } from '../../contract/index.ts';
import { TEST_ADMIN } from '../../hil/admin.ts';

type Json = Record<string, unknown>;

/** One request with a raw body: what a probe sends, not what the console would. */
function send(url: string, init: { method?: string; headers?: Record<string, string>; body?: Buffer | string } = {}): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  return new Promise((res, rej) => {
    const req = request(url, { method: init.method ?? 'GET', headers: init.headers }, (r) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => res({ status: r.statusCode!, headers: r.headers, text: Buffer.concat(chunks).toString() }));
    });
    req.on('error', rej);
    req.end(init.body);
  });
}

const t = suite('what the simulated terminal refuses');
let sim: Simulator;
let token: string;
const post = async (name: string, body: string | Buffer, type = 'application/json') =>
  JSON.parse((await send(`${sim.url}/goform/${name}`, { method: 'POST', headers: { 'Content-Type': type, 'X-Token': token }, body })).text) as Json;
const read = async (name: string) => JSON.parse((await send(`${sim.url}/goform/${name}`, { headers: { 'X-Token': token } })).text) as Json;

t.before(async () => {
  sim = await startSimulator({ activated: TEST_ADMIN.password, storeFile: join(mkdtempSync(join(tmpdir(), 'refuse-')), 'store.json') });
  token = JSON.parse((await send(`${sim.url}/goform/chklogin`, { method: 'POST', body: JSON.stringify({ username: 'admin', password: TEST_ADMIN.password }) })).text).token;
});
t.after(() => sim.close());

t('built-in object names beside valid fields are refused on every settings write, and nothing is stored', async () => {
  // The settings pairs: a GET read Set<Name> that takes nothing, and a JSON write Get<Name> (numbered ones read by number: the fuzz test has them).
  const readOf = (n: string) => CALLS[`Set${n.slice(3)}` as keyof typeof CALLS];
  const writes = Object.keys(CALLS).filter((n) => n.startsWith('Get') && readOf(n)?.method === 'GET' && !Object.keys(readOf(n).request).length && CALLS[n as keyof typeof CALLS].encoding === 'json');
  assert.ok(writes.length >= 20, `${writes.length} settings writes`);
  for (const w of writes) {
    const before = await read(`Set${w.slice(3)}`);
    const fields = CALLS[w as keyof typeof CALLS].request;
    // The serial-number keys read empty at the factory, but a write must set each (GetSNKeyParam refuses an empty key).
    const values = w === 'GetSNKeyParam' ? Object.fromEntries(Object.keys(fields).map((k) => [k, 'AAAAA'])) : before;
    const valid = JSON.stringify(Object.fromEntries(Object.entries(values).filter(([k]) => k in fields)));
    for (const name of ['toString', 'valueOf', 'constructor', '__proto__', 'hasOwnProperty']) {
      const r = await post(w, valid.replace(/}$/, `${valid === '{}' ? '' : ','}"${name}":"${'x'.repeat(1000)}"}`));
      assert.is(r.retvalue, 10005, `${w} with ${name}`);
      assert.is(r.field, name);
    }
    assert.equal(await read(`Set${w.slice(3)}`), before, `${w}: the read is unchanged`);
  }
  assert.ok(!/toString|valueOf|constructor|__proto__/.test(JSON.stringify(sim.store.get())), 'nothing of it in the store');
});

t('a body over 1 MiB gets an envelope (10101), not a reset', async () => {
  const r = await post('GetKaoqinParam', `{"RepeatTime":3,"AlarmLogs":"${'x'.repeat(REQUEST_MAX_BYTES)}"}`);
  assert.is(r.retvalue, 10101);
  const form = await post('AddGroupTime', `Name=${'x'.repeat(REQUEST_MAX_BYTES)}`, 'application/x-www-form-urlencoded');
  assert.is(form.retvalue, 10101);
});

t('null is no value: refused for optional and required fields, never stored', async () => {
  for (const [w, field] of [['GetWorkModeSwitch', ''], ['GetMqttCloudParam', ''], ['GetCommMode', ''], ['GetBluetoothParam', ''], ['GetWirless', '']] as const) {
    const spec = CALLS[w].request as Record<string, { optional?: boolean }>;
    const name = field || Object.keys(spec).find((k) => spec[k].optional) || Object.keys(spec)[0];
    const before = await read(`Set${w.slice(3)}`);
    const r = await post(w, JSON.stringify({ ...before, retvalue: undefined, [name]: null }));
    assert.is(r.retvalue, 10005, `${w}.${name}`);
    assert.is(r.field, name);
    assert.equal(await read(`Set${w.slice(3)}`), before);
  }
});

t('control characters and half surrogates in text are refused', async () => {
  const before = await read('SetPrintParam');
  for (const bad of ['Shop\u0000evil', 'a\u0001b', 'a\u001b[2Jb', 'a\u007fb', 'a\u0085b', 'line\nbreak']) {
    const r = await post('GetPrintParam', JSON.stringify({ ...before, retvalue: undefined, UnitName: bad }));
    assert.is(r.retvalue, 10005, JSON.stringify(bad));
    assert.is(r.field, 'UnitName');
  }
  const lone = await post('GetPrintParam', JSON.stringify({ ...before, retvalue: undefined }).replace('}', ',"UnitName":"a\\ud800b"}'));
  assert.is(lone.retvalue, 10005);
  assert.equal(await read('SetPrintParam'), before);
  const group = await post('AddGroupTime', 'Type=1&Name=Lunch%00break&Start=2031-01-01+08%3A00&End=2031-01-01+09%3A00', 'application/x-www-form-urlencoded');
  assert.is(group.retvalue, 10005);
});

t('a date that does not exist is refused (GetDateTimeParam, AddGroupTime), and the clock is not moved', async () => {
  const before = await read('SetDateTimeParam');
  const r = await post('GetDateTimeParam', JSON.stringify({ ...before, retvalue: undefined, Mode: 0, Date: '2031-02-30' }));
  assert.is(r.retvalue, 10005);
  assert.is(r.field, 'Date');
  assert.is((await read('SetDateTimeParam')).Date, before.Date);
  const g = await post('AddGroupTime', 'Type=1&Name=Lunch&Start=2031-02-30+08%3A00&End=2031-03-01+09%3A00', 'application/x-www-form-urlencoded');
  assert.is(g.retvalue, 10005);
  assert.is(g.field, 'Start');
  assert.ok(realMoment('2032-02-29') && !realMoment('2031-02-29') && !realMoment('2031-04-31') && realMoment('2031-12-31 23:59') && !realMoment('2031-12-31 24:00'));
});

t('invalid UTF-8 in a body or a query is refused, never stored as U+FFFD', async () => {
  const before = await read('SetPrintParam');
  const body = Buffer.concat([Buffer.from(JSON.stringify({ ...before, retvalue: undefined }).replace(/"UnitName":"[^"]*"/, '"UnitName":"Caf')), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
  const r = await post('GetPrintParam', body);
  assert.is(r.retvalue, 10005);
  assert.equal(await read('SetPrintParam'), before);
  const q = JSON.parse((await send(`${sim.url}/goform/userlist?Name=%C3%28&Page=1`, { headers: { 'X-Token': token } })).text);
  assert.is(q.retvalue, 10005);
  const form = await post('AddGroupTime', 'Type=1&Name=%FF%FE&Start=2031-01-01+08%3A00&End=2031-01-01+09%3A00', 'application/x-www-form-urlencoded');
  assert.is(form.retvalue, 10005);
  assert.not.ok(JSON.stringify(sim.store.get()).includes('\ufffd'));
});

t('malformed %-escapes in a file path answer 400; a wrong method 405 with Allow', async () => {
  for (const p of ['/%zz', '/%', '/%e0%a4%a']) assert.is((await send(sim.url + p)).status, 400, p);
  const wrong = await send(`${sim.url}/goform/SetKaoqinParam`, { method: 'POST', headers: { 'X-Token': token } });
  assert.is(wrong.status, 405);
  assert.is(wrong.headers.allow, 'GET');
  assert.is(JSON.parse(wrong.text).retvalue, 10001);
  const file = await send(`${sim.url}/index.html`, { method: 'DELETE' });
  assert.is(file.status, 405);
  assert.is(file.headers.allow, 'GET, HEAD');
});
t.run();

// ---------------------------------------------------------------------------
const g = suite('the illegal-login lock');
const R = LOGIN_LOCK_RULES;

g('free tries, then growing waits, then the lock; a right password resets; nothing locks for good', () => {
  const guard = new LoginGuard();
  let now = 1_000_000;
  const waits: number[] = [];
  for (let i = 1; i <= R.lockAfter; i++) {
    now += 60_000; // the wait (at most 32 s) has passed: this try was allowed
    assert.is(guard.wait('10.0.0.9', 'admin', now), 0, `try ${i} is open`);
    waits.push(guard.failed('10.0.0.9', 'admin', now));
  }
  assert.equal(waits, [0, 0, 0, 1, 2, 4, 8, 16, 32, R.lockS]);
  assert.is(guard.wait('10.0.0.9', 'admin', now + 1000), R.lockS - 1);
  assert.is(guard.wait('10.0.0.8', 'admin', now), 0, 'another address is not locked');
  assert.is(guard.wait('10.0.0.9', 'admin', now + R.lockS * 1000), 0, 'the lock ends');
  guard.succeeded('10.0.0.9', 'admin');
  assert.is(guard.failed('10.0.0.9', 'admin', now + R.lockS * 1000), 0, 'after a right password the free tries are back');
});

g('made-up user names from one address count against the address', () => {
  const guard = new LoginGuard();
  let now = 0;
  let last = 0;
  for (let i = 0; i < R.addressLockAfter; i++) {
    now += 60_000;
    last = guard.failed('10.0.0.7', `user${i}`, now);
  }
  assert.is(last, R.lockS);
  assert.is(guard.wait('10.0.0.7', 'admin', now), R.lockS, 'the real account from that address waits too');
});

g('over HTTP: 40303 with wait and minutes, whatever the password, while closed', async () => {
  const s = await startSimulator({ activated: TEST_ADMIN.password, storeFile: join(mkdtempSync(join(tmpdir(), 'lock-')), 'store.json') });
  try {
    const login = async (password: string) => JSON.parse((await send(`${s.url}/goform/chklogin`, { method: 'POST', body: JSON.stringify({ username: 'admin', password }) })).text) as Json;
    for (let i = 0; i < R.free; i++) assert.is((await login('000000')).retvalue, 40302);
    const closing = await login('000000');
    assert.is(closing.retvalue, 40302);
    assert.is(closing.wait, R.firstWaitS);
    const locked = await login(TEST_ADMIN.password);
    assert.is(locked.retvalue, LOGIN_LOCKED, 'the right password waits too');
    assert.is(locked.msg, 'msg.loginLocked');
    assert.is(locked.minutes, 1);
    await new Promise((r) => setTimeout(r, R.firstWaitS * 1000 + 50));
    assert.is((await login(TEST_ADMIN.password)).retvalue, 0, 'open again after the wait');
  } finally {
    await s.close();
  }
});
g.run();

// ---------------------------------------------------------------------------
const st = suite('the store after kills');
st('temporary files of writers that died are removed at start; a live writer keeps its own', () => {
  const dir = mkdtempSync(join(tmpdir(), 'leftovers-'));
  const file = join(dir, 'store.json');
  for (const pid of [999_999_1, 999_999_2]) writeFileSync(join(dir, `.store.json.${pid}.tmp`), '{"half":');
  // A writer still running (here the parent process) keeps its file.
  writeFileSync(join(dir, `.store.json.${process.ppid}.tmp`), 'in progress');
  writeFileSync(join(dir, '.other.json.9999991.tmp'), 'not ours');
  new Store(file, () => ({ a: 1 }));
  assert.equal(readdirSync(dir).sort(), ['.other.json.9999991.tmp', `.store.json.${process.ppid}.tmp`, 'store.json'].sort());
  assert.equal(removeLeftovers(file), []);
});
st.run();
