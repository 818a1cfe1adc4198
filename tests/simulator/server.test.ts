// The simulated terminal: contract validation, SPEC §8 codes, persistence,
// crash safety, and serving a gzip set the way firmware would.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync, gunzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { startSimulator, type Simulator } from '../../simulator/server.ts';
import { loadModel } from '../../simulator/model.ts';
import { coerce, validate } from '../../simulator/validate.ts';
import { IMPLEMENTED } from '../../simulator/api.ts';
import { Store, writeFileAtomic } from '../../simulator/store.ts';
import { CALLS } from '../../contract/index.ts';
import { callSimulator } from '../support/helpers.ts';
import { TEST_ADMIN } from '../../hil/admin.ts';
import { KEEP_ALIVE_SECONDS } from '../../build/access.ts';

const tmp = () => mkdtempSync(join(tmpdir(), 'sim-'));

const call = (sim: Simulator, name: keyof typeof CALLS, params: Record<string, unknown> = {}, token?: string) => callSimulator(sim.url, name, params, token);

async function login(sim: Simulator, password: string = TEST_ADMIN.password): Promise<string> {
  const r = await call(sim, 'chklogin', { username: 'admin', password });
  assert.is(r.retvalue, 0);
  return r.token as string;
}

// ---------------------------------------------------------------------------
const v = suite('validation from the contract');

v('missing required field -> 10003 naming it', () => {
  assert.equal(validate({ username: 'a' }, CALLS.chklogin.request), { code: 10003, field: 'password' });
});
v('value out of form -> 10005 naming it', () => {
  assert.equal(validate({ userid: 'a', oldpwd: '12345a', newpwd: '123456' }, CALLS.EditPwd.request), { code: 10005, field: 'oldpwd' });
  assert.equal(validate({ username: 'x'.repeat(33), password: '' }, CALLS.chklogin.request), { code: 10005, field: 'username' });
  assert.equal(validate({ LanguageSettingItem: 2 }, CALLS.GetLanguageSettingItem.request), { code: 10005, field: 'LanguageSettingItem' });
});
v('unknown fields are refused', () => {
  assert.equal(validate({ username: 'a', password: 'b', admin: 1 }, CALLS.chklogin.request), { code: 10005, field: 'admin' });
});
v('query and form values are read by their kinds', () => {
  const fields = { n: { kind: 'int', doc: '', min: 0, max: 250 }, f: { kind: 'flag', doc: '' }, s: { kind: 'string', doc: '' } } as const;
  assert.equal(coerce({ n: '42', f: '1', s: '007' }, fields, true), { n: 42, f: 1, s: '007' });
  assert.equal(validate(coerce({ n: '251', f: '1', s: '' }, fields, true), fields), { code: 10005, field: 'n' });
  assert.equal(validate(coerce({ n: '4.5', f: '1', s: '' }, fields, true), fields), { code: 10005, field: 'n' });
});
v.run();

// ---------------------------------------------------------------------------
const api = suite('API over HTTP');
let sim: Simulator;
let dir: string;
api.before(async () => {
  dir = tmp();
  sim = await startSimulator({ activated: TEST_ADMIN.password, storeFile: join(dir, 'store.json') });
});
api.after(() => sim.close());

api('sign in: wrong user 40301, wrong password 40302, empty 40101 / 40201, right one gets token and funs', async () => {
  assert.is((await call(sim, 'chklogin', { username: 'root', password: TEST_ADMIN.password })).retvalue, 40301);
  const bad = await call(sim, 'chklogin', { username: 'admin', password: 'nope' });
  assert.equal(bad, { retvalue: 40302, msg: 'err.40302' });
  assert.is((await call(sim, 'chklogin', { username: '', password: 'x' })).retvalue, 40101);
  assert.is((await call(sim, 'chklogin', { username: 'admin', password: '' })).retvalue, 40201);
  assert.is((await call(sim, 'chklogin', { username: 'admin' })).retvalue, 10003);
  const ok = await call(sim, 'chklogin', { username: 'admin', password: TEST_ADMIN.password });
  assert.is(ok.retvalue, 0);
  assert.match(ok.token as string, /^[0-9a-f]{32}$/);
  assert.equal(ok.funs, sim.model.funs);
});

api('calls that need a session answer 10002 without a valid token', async () => {
  assert.is((await call(sim, 'GetDeviceFunList')).retvalue, 10002);
  assert.is((await call(sim, 'GetDeviceFunList', {}, 'forged')).retvalue, 10002);
  const token = await login(sim);
  assert.is((await call(sim, 'GetDeviceFunList', {}, token)).retvalue, 0);
  assert.is((await call(sim, 'logout', {}, token)).retvalue, 0);
  assert.is((await call(sim, 'GetDeviceFunList', {}, token)).retvalue, 10002, 'logout ends the token');
});

api('wrong method and unknown call are refused', async () => {
  const r1 = await fetch(`${sim.url}/goform/chklogin`);
  assert.is(r1.status, 405);
  assert.is(((await r1.json()) as { retvalue: number }).retvalue, 10001);
  const r2 = await fetch(`${sim.url}/goform/nope`);
  assert.is(r2.status, 404);
});

api('info answers the profile and live counts', async () => {
  const token = await login(sim);
  const info = await call(sim, 'SetInfoParam', {}, token);
  assert.is(info.Serial, sim.model.Serial);
  assert.equal(info.funOption, sim.model.funOption);
  const users = sim.store.get().users;
  assert.is(info.UserCount, users.length);
  assert.ok((info.UserCount as number) > 0, 'seeded users');
  let fingers = 0;
  for (const u of users) for (let m = u.FPMask; m; m &= m - 1) fingers++;
  assert.is(info.FPCount, fingers, 'enrolled fingers');
  assert.is(info.FaceCount, users.filter((u) => u.Face).length);
  assert.is(info.CardCount, users.filter((u) => u.CardNo).length, 'users with a card');
  assert.is(info.MaxCard, sim.model.MaxCard, 'the card capacity (the profile\'s)');
  assert.is(info.IrisCount, 0);
  const { retvalue: _, ...fields } = info;
  assert.is(validate(fields, CALLS.SetInfoParam.response), null, 'the reply fits the contract');
});

api('EditPwd: wrong old 40302, bad format 40202, each changes nothing; a good change persists', async () => {
  const token = await login(sim);
  assert.equal(await call(sim, 'EditPwd', { userid: 'admin', oldpwd: '000000', newpwd: '583920' }, token), { retvalue: 40302, msg: 'err.40302', field: 'oldpwd' });
  assert.equal(await call(sim, 'EditPwd', { userid: 'admin', oldpwd: TEST_ADMIN.password, newpwd: '65432' }, token), { retvalue: 40202, msg: 'err.40202', field: 'newpwd' });
  assert.is((await call(sim, 'EditPwd', { userid: 'admin', oldpwd: TEST_ADMIN.password, newpwd: 'abcdef' }, token)).retvalue, 40202);
  assert.is((await call(sim, 'EditPwd', { userid: 'other', oldpwd: TEST_ADMIN.password, newpwd: '583920' }, token)).retvalue, 40301);
  assert.is(JSON.parse(readFileSync(join(dir, 'store.json'), 'utf8')).admin.password, TEST_ADMIN.password);
  assert.is((await call(sim, 'EditPwd', { userid: 'admin', oldpwd: TEST_ADMIN.password, newpwd: '583920' }, token)).retvalue, 0);
  assert.is(JSON.parse(readFileSync(join(dir, 'store.json'), 'utf8')).admin.password, '583920');
  await sim.close();
  sim = await startSimulator({ activated: TEST_ADMIN.password, storeFile: join(dir, 'store.json') });
  assert.is((await call(sim, 'chklogin', { username: 'admin', password: TEST_ADMIN.password })).retvalue, 40302, 'old password gone after restart');
  await login(sim, '583920');
});

api('checkPower confirms the administrator password', async () => {
  const token = await login(sim, '583920');
  assert.is((await call(sim, 'checkPower', { password: '583920' }, token)).retvalue, 0);
  assert.is((await call(sim, 'checkPower', { password: TEST_ADMIN.password }, token)).retvalue, 40302);
  assert.is((await call(sim, 'checkPower', {}, token)).retvalue, 10003);
});

api('language setting: read, write, validated', async () => {
  const token = await login(sim, '583920');
  assert.is((await call(sim, 'SetLanguageSettingItem', {}, token)).LanguageSettingItem, 1);
  assert.is((await call(sim, 'GetLanguageSettingItem', { LanguageSettingItem: 0 }, token)).retvalue, 0);
  assert.is((await call(sim, 'SetLanguageSettingItem', {}, token)).LanguageSettingItem, 0);
  assert.is((await call(sim, 'GetLanguageSettingItem', { LanguageSettingItem: 'yes' }, token)).retvalue, 10005);
  assert.is((await call(sim, 'getLanList', {}, token)).lans instanceof Array, true);
});

api('the simulated terminal answers every call of the contract', async () => {
  const missing = Object.keys(CALLS).filter((name) => !Object.prototype.hasOwnProperty.call(IMPLEMENTED, name));
  assert.equal(missing, []);
});

api('an idle session ends with 40104', async () => {
  const d = tmp();
  const s2 = await startSimulator({ activated: TEST_ADMIN.password, storeFile: join(d, 's.json'), model: loadModel('default', { sessionIdleMs: 50 }) });
  try {
    const token = await login(s2);
    await new Promise((r) => setTimeout(r, 120));
    assert.is((await call(s2, 'GetDeviceFunList', {}, token)).retvalue, 40104);
  } finally {
    await s2.close();
  }
});

api('a reduced profile answers a reduced function list', async () => {
  const d = tmp();
  const s2 = await startSimulator({ activated: TEST_ADMIN.password, storeFile: join(d, 's.json'), model: loadModel('lite') });
  try {
    const token = await login(s2);
    const funs = (await call(s2, 'GetDeviceFunList', {}, token)).funs as string[];
    assert.not.ok(funs.includes('bluetooth'));
    assert.not.ok(funs.includes('AccSetting'));
    assert.is(((await call(s2, 'SetInfoParam', {}, token)).funOption as { FP: number }).FP, 0);
  } finally {
    await s2.close();
  }
});
api.run();

// ---------------------------------------------------------------------------
const st = suite('store');

st('writes atomically: a crash before the rename leaves the old file whole', () => {
  const d = tmp();
  const file = join(d, 'x.json');
  writeFileAtomic(file, '{"a":1}');
  // What a crash mid-write leaves behind: a torn temporary file, never the real one.
  writeFileSync(join(d, `.x.json.99999.tmp`), '{"a":');
  assert.equal(JSON.parse(readFileSync(file, 'utf8')), { a: 1 });
  const s = new Store(file, () => ({ a: 0 }));
  assert.equal(s.get(), { a: 1 });
});

st('changes are applied in order and each resolves after it is on disk', async () => {
  const d = tmp();
  const file = join(d, 'x.json');
  const s = new Store(file, () => ({ n: 0, log: [] as number[] }));
  await Promise.all([1, 2, 3, 4, 5].map((i) => s.update((x) => void x.log.push(i)).then(() => assert.ok(JSON.parse(readFileSync(file, 'utf8')).log.includes(i)))));
  assert.equal(JSON.parse(readFileSync(file, 'utf8')).log, [1, 2, 3, 4, 5]);
  assert.equal(readdirSync(d), ['x.json'], 'no temporary files left');
});

st('a killed simulator loses no acknowledged change', async () => {
  const d = tmp();
  const storeFile = join(d, 'store.json');
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'fixtures/sim-child.ts'), storeFile], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise((r) => child.once('exit', r));
  const url: string = await new Promise((resolve) => child.stdout!.once('data', (b) => resolve(String(b).trim())));
  const post = async (path: string, body: unknown, token?: string) =>
    (await (await fetch(`${url}/goform/${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...(token ? { 'X-Token': token } : {}) }, body: JSON.stringify(body) })).json()) as Record<string, unknown>;
  const token = (await post('chklogin', { username: 'admin', password: TEST_ADMIN.password })).token as string;
  let current: string = TEST_ADMIN.password;
  let acked = current;
  const sent: string[] = [];
  const killAt = 15 + Math.floor(Math.random() * 20);
  for (let i = 0; i < 60; i++) {
    const next = String(100000 + i);
    sent.push(next);
    if (i === killAt) {
      // Kill while this change is in flight.
      const inFlight = post('EditPwd', { userid: 'admin', oldpwd: current, newpwd: next }, token).catch(() => null);
      child.kill('SIGKILL');
      await inFlight;
      break;
    }
    const r = await post('EditPwd', { userid: 'admin', oldpwd: current, newpwd: next }, token);
    assert.is(r.retvalue, 0);
    current = acked = next;
  }
  await exited;
  const stored = JSON.parse(readFileSync(storeFile, 'utf8')).admin.password as string;
  const allowed = [acked, ...sent.slice(sent.indexOf(acked) + 1)];
  assert.ok(allowed.includes(stored), `stored ${stored}, last acknowledged ${acked}`);
});
st.run();

// ---------------------------------------------------------------------------
const web = suite('serving the console');
let site: Simulator;
let siteDir: string;
web.before(async () => {
  siteDir = tmp();
  const files: Record<string, string> = { 'index.html': '<!doctype html><p>console</p>', 'app-ABC123.js': 'console.log(1)', 'logo-1.svg': '<svg/>' };
  const manifest = { brand: 't', version: '0', files: [] as unknown[] };
  for (const [name, text] of Object.entries(files)) {
    const gz = gzipSync(text);
    writeFileSync(join(siteDir, `${name}.gz`), gz);
    manifest.files.push({ path: name, bytes: text.length, gzipBytes: gz.length, sha256: createHash('sha256').update(gz).digest('hex') });
  }
  writeFileSync(join(siteDir, 'manifest.json'), JSON.stringify(manifest));
  site = await startSimulator({ activated: TEST_ADMIN.password, storeFile: join(tmp(), 's.json'), siteDir });
});
web.after(() => site.close());

const raw = async (path: string, headers: Record<string, string> = {}) => {
  const { request } = await import('node:http');
  return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
    const req = request(`${site.url}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
};

web('gzip files with Content-Encoding and the right types', async () => {
  const js = await raw('/app-ABC123.js');
  assert.is(js.headers['content-encoding'], 'gzip');
  assert.is(js.headers['content-type'], 'text/javascript; charset=utf-8');
  assert.is(gunzipSync(js.body).toString(), 'console.log(1)');
  assert.is((await raw('/logo-1.svg')).headers['content-type'], 'image/svg+xml');
});

web('hashed assets are cached immutable; index.html is not cached', async () => {
  assert.match(String((await raw('/app-ABC123.js')).headers['cache-control']), /immutable/);
  const html = await raw('/');
  assert.is(html.headers['cache-control'], 'no-cache');
  assert.is(gunzipSync(html.body).toString(), '<!doctype html><p>console</p>');
});

web('an idle connection is kept a minute, as the real servers keep one (KEEP_ALIVE_SECONDS), not Node\'s 5 s', async () => {
  const r = await raw('/', { Connection: 'keep-alive' });
  assert.is(r.headers.connection, 'keep-alive');
  assert.is(r.headers['keep-alive'], `timeout=${KEEP_ALIVE_SECONDS}`);
  assert.is(KEEP_ALIVE_SECONDS, 60);
});

web('unknown non-API paths get index.html; path tricks reach nothing else', async () => {
  for (const p of ['/user/userList', '/network/mqtt?x=1', '/../manifest.json', '/%2e%2e/store.json', '/manifest.json']) {
    const r = await raw(p);
    assert.is(r.status, 200, p);
    assert.is(gunzipSync(r.body).toString(), '<!doctype html><p>console</p>', p);
  }
});

web('a second visit revalidates with ETag and gets 304', async () => {
  const first = await raw('/app-ABC123.js');
  const again = await raw('/app-ABC123.js', { 'If-None-Match': String(first.headers.etag) });
  assert.is(again.status, 304);
  assert.is(again.body.length, 0);
});

web('no console installed: a plain 503, the API still answers', async () => {
  site.setSite(join(siteDir, 'missing'));
  assert.is((await raw('/')).status, 503);
  assert.is((await call(site, 'chklogin', { username: 'admin', password: TEST_ADMIN.password })).retvalue, 0);
  site.setSite(siteDir);
  assert.is((await raw('/')).status, 200, 'serving again once a console is there');
});
web.run();
