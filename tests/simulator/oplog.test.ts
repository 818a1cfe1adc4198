// The operation log over HTTP, as docs/API.md ("Operation log") says the
// device keeps it: each action leaves its entry (time, account, address,
// kind, detail); a settings write names the changed fields only; no secret
// value is ever in searchOperationLog's answers or DownloadOperationLog's
// file; the ring drops the oldest; paging and the search; bad input.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { startSimulator, type Simulator } from '../../simulator/server.ts';
import { loadModel, type ModelOverrides } from '../../simulator/model.ts';
import { makePackage } from '../../contract/firmware.ts';
import { CALLS, GOFORM_PREFIX, HEADERS, type CallName } from '../../contract/index.ts';
import { OPLOG_KINDS, OPLOG_SIZE } from '../../contract/oplog.ts';
import { TEST_VENDOR_KEY } from '../support/keys/vendor.ts';
import { callSimulator } from '../support/helpers.ts';
import { TEST_ADMIN } from '../../hil/admin.ts';

type Rec = Record<string, unknown>;
interface Entry {
  Time: string;
  Kind: number;
  User: string;
  Address: string;
  Detail: string;
}
const folder = () => mkdtempSync(join(tmpdir(), 'oplog-'));
const TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const HOUR = 3_600_000;

interface Device {
  sim: Simulator;
  storeFile: string;
  token: string;
  call(name: CallName, params?: Rec, token?: string): Promise<Rec>;
  login(username?: string, password?: string): Promise<Rec>;
  /** Every entry that matches, newest first (one page of 100). */
  log(search?: Rec): Promise<Entry[]>;
  /** DownloadOperationLog read back with exceljs: every row's cells, the header first, and the file name. */
  sheet(search?: Rec): Promise<{ rows: string[][]; file: string; bytes: Buffer }>;
  close(): Promise<void>;
}

let clock = Date.now();

async function device(overrides: ModelOverrides = {}, options: { storeFile?: string; factory?: boolean } = {}): Promise<Device> {
  const storeFile = options.storeFile ?? join(folder(), 'store.json');
  const sim = await startSimulator({ activated: options.factory ? undefined : TEST_ADMIN.password, storeFile, now: () => clock, model: loadModel('default', { seedUsers: 12, seedRecords: 0, restartMs: 30, ...overrides }) });
  const d: Device = {
    sim,
    storeFile,
    token: '',
    call: (name, params = {}, token) => callSimulator(sim.url, name, params, token ?? d.token),
    async login(username = TEST_ADMIN.username, password = TEST_ADMIN.password) {
      const r = await callSimulator(sim.url, 'chklogin', { username, password });
      if (r.retvalue === 0) d.token = String(r.token);
      return r;
    },
    async log(search = {}) {
      const r = await d.call('searchOperationLog', { Page: 1, PageSize: 100, Kind: 0, ...search });
      assert.is(r.retvalue, 0, JSON.stringify(r));
      return r.List as Entry[];
    },
    async sheet(search = {}) {
      const res = await fetch(`${sim.url}${GOFORM_PREFIX}DownloadOperationLog?_t=1&${new URLSearchParams({ Kind: '0', ...search } as Record<string, string>)}`, { headers: { [HEADERS.token]: d.token } });
      const bytes = Buffer.from(await res.arrayBuffer());
      assert.is(res.headers.get('content-type'), 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', bytes.subarray(0, 200).toString());
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(new Uint8Array(bytes).buffer);
      const rows: string[][] = [];
      wb.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1).map((v) => String(v ?? ''))));
      return { rows, file: /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? '', bytes };
    },
    close: () => sim.close(),
  };
  if (!options.factory) assert.is((await d.login()).retvalue, 0, 'signed in');
  return d;
}

/** The newest entry. */
const last = async (d: Device) => (await d.log())[0];
const kindOf = (name: string) => Number(Object.entries(OPLOG_KINDS).find(([, v]) => v === name)![0]);

const t = suite('operation log');

t('sign-in, failed sign-in, the lock (once), sign-out: each an entry with time, account and address', async () => {
  const d = await device();
  try {
    const first = await last(d);
    assert.equal({ ...first, Time: '' }, { Time: '', Kind: 1, User: TEST_ADMIN.username, Address: '127.0.0.1', Detail: '' });
    assert.match(first.Time, TIME);
    const main = d.token;
    assert.is((await d.login('  nobody  ', '111111')).retvalue, 40301);
    assert.equal(await last(d), { ...(await last(d)), Kind: 2, User: 'nobody', Detail: 'unknown user' }, 'the typed name, trimmed');
    // Wrong passwords until one closes sign-in: that one is the lock; a refusal while locked is not logged again.
    let r: Rec = {};
    let tries = 0;
    while (!r.wait) (r = await d.login(TEST_ADMIN.username, '000999')), tries++;
    assert.is(r.retvalue, 40302);
    const entries = await d.log();
    assert.equal(entries.slice(0, tries).map((e) => e.Kind), [3, ...Array(tries - 1).fill(2)], 'the failures, the last one the lock');
    assert.equal(entries[0].Detail, 'wrong password');
    assert.is((await d.login(TEST_ADMIN.username, '000999')).retvalue, 40303);
    assert.is((await d.log()).length, entries.length, '40303 leaves no entry');
    d.token = main;
    assert.equal(await d.call('logout'), { retvalue: 0 });
    // The log is read with a session of another address's... the same address is locked: a restart clears locks.
    await d.sim.restart();
    await d.login();
    const after = await d.log();
    assert.equal(after.slice(0, 2).map((e) => [e.Kind, e.User, e.Detail]), [[1, 'admin', ''], [4, 'admin', 'logout']], 'sign-out, then this sign-in; the log survived the restart');
  } finally {
    await d.close();
  }
});

t('a settings write names the fields whose stored value changed, never a value', async () => {
  const d = await device();
  try {
    const read = await d.call('SetKaoqinParam');
    const { retvalue, ...fields } = read;
    assert.is(retvalue, 0);
    const repeat = Number(fields.RepeatTime) === 5 ? 6 : 5;
    assert.equal(await d.call('GetKaoqinParam', { ...fields, RepeatTime: repeat }), { retvalue: 0 });
    assert.equal(await last(d), { ...(await last(d)), Kind: 5, User: 'admin', Address: '127.0.0.1', Detail: 'GetKaoqinParam: RepeatTime' });
    assert.equal(await d.call('GetKaoqinParam', { ...fields, RepeatTime: repeat }), { retvalue: 0 });
    assert.is((await last(d)).Detail, 'GetKaoqinParam', 'a write that changed nothing: the call alone');
    assert.not.ok(JSON.stringify(await d.log()).includes(`"${repeat}"`) || (await last(d)).Detail.includes(String(repeat)));
    // A read leaves nothing; a refused write neither.
    const n = (await d.log()).length;
    await d.call('SetKaoqinParam');
    assert.is((await d.call('GetKaoqinParam', { ...fields, RepeatTime: -1 })).retvalue, 10005);
    assert.is((await d.log()).length, n);
  } finally {
    await d.close();
  }
});

t('users added, edited, deleted: the user IDs; many: the count and the first few', async () => {
  const d = await device();
  try {
    const user = { UserID: '900', UserName: 'Ann', Admin: 0, Group: 0, IdentifyMode: 0, Shift: 0 };
    assert.is((await d.call('adduser', user)).retvalue, 0);
    assert.equal([(await last(d)).Kind, (await last(d)).Detail], [6, 'adduser: 900']);
    assert.is((await d.call('edituser', { ...user, UserName: 'Anne' })).retvalue, 0);
    assert.equal([(await last(d)).Kind, (await last(d)).Detail], [7, 'edituser: 900']);
    assert.is((await d.call('deleteuser', { UserID: '900' })).retvalue, 0);
    assert.equal([(await last(d)).Kind, (await last(d)).Detail], [8, 'deleteuser: 900']);
    assert.equal(await d.call('deletsomeuser', { UserIDs: ['1', '2', '3', '4', '5', '6', '7', '99999'] }), { retvalue: 0, Deleted: 7 });
    assert.equal([(await last(d)).Kind, (await last(d)).Detail], [8, 'deletsomeuser: 7: 1, 2, 3, 4, 5, …'], 'only the users that were there');
    assert.is((await d.call('deletsomeuser', { UserIDs: ['8', '9'] })).Deleted, 2);
    assert.is((await last(d)).Detail, 'deletsomeuser: 2: 8, 9');
  } finally {
    await d.close();
  }
});

t('upgrade, restart, initialization (the log survives it), backup and restore', async () => {
  const d = await device();
  try {
    const form = new FormData();
    const pkg = makePackage({ model: 'T10', version: 'V9.0.1', payload: Buffer.from('firmware '.repeat(50)), key: TEST_VENDOR_KEY });
    form.append('File', new Blob([new Uint8Array(pkg)]), 'fw.bin');
    const up = await (await fetch(`${d.sim.url}/goform/UpdateMachine?_t=1`, { method: 'POST', headers: { 'X-Token': d.token }, body: form })).json();
    assert.is(up.retvalue, 0, JSON.stringify(up));
    await d.sim.whenUp();
    await d.login();
    const [signIn, upgrade] = await d.log();
    assert.is(signIn.Kind, 1);
    assert.equal([upgrade.Kind, upgrade.Detail], [9, `UpdateMachine: ${d.sim.model.Build_Version} to V9.0.1`]);
    assert.equal(await d.call('RestartMachine'), { retvalue: 0 });
    await d.sim.whenUp();
    await d.login();
    assert.equal((await d.log())[1].Kind, 10);
    assert.equal(await d.call('noteOperation', { Kind: 12 }), { retvalue: 0 });
    assert.equal(await d.call('noteOperation', { Kind: 13 }), { retvalue: 0 });
    assert.equal((await d.log()).slice(0, 2).map((e) => [e.Kind, e.User, e.Detail]), [[13, 'admin', ''], [12, 'admin', '']]);
    const before = (await d.log()).length;
    assert.equal(await d.call('InitMachine'), { retvalue: 0 });
    await d.sim.whenUp();
    // Initialization: the factory state (the factory credential, which must choose a password first).
    const factory = await d.login(d.sim.model.admin.username, d.sim.model.admin.password);
    assert.is(factory.activate, 1);
    assert.equal(await d.call('Activate', { newpwd: '583920' }), { retvalue: 0 });
    const after = await d.log();
    assert.is(after.length, before + 3, 'everything before it is still there');
    assert.equal(after.slice(0, 3).map((e) => [e.Kind, e.Detail]), [[5, 'Activate: password, activated'], [1, ''], [11, 'InitMachine']]);
  } finally {
    await d.close();
  }
});

t('no secret value in the log or its download: passwords, PINs, cards, the certificate and its key', async () => {
  const dir = folder();
  const openssl = (...a: string[]) => execFileSync('openssl', a, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  openssl('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', 'k.pem', '-out', 'c.pem', '-subj', '/CN=log.example.org', '-days', '30');
  const cert = readFileSync(join(dir, 'c.pem'), 'utf8');
  const key = readFileSync(join(dir, 'k.pem'), 'utf8');
  clock = Date.now();
  const d = await device({}, { factory: true });
  try {
    const { username, password: factoryPw } = d.sim.model.admin;
    await d.login(username, factoryPw);
    assert.equal(await d.call('Activate', { newpwd: '583920' }), { retvalue: 0 });
    assert.equal(await d.call('EditPwd', { userid: username, oldpwd: '583920', newpwd: '619274' }), { retvalue: 0 });
    assert.equal(await d.call('checkPower', { password: '619274' }), { retvalue: 0 });
    await d.login(username, '702938');
    assert.is((await d.call('adduser', { UserID: '77', UserName: 'Pin', Password: '86421357', CardNo: '3141592653', Admin: 0, Group: 0, IdentifyMode: 6, Shift: 0 })).retvalue, 0);
    const form = new FormData();
    form.append('Cert', new Blob([cert]), 'c.pem');
    form.append('Key', new Blob([key]), 'k.pem');
    const installed = await (await fetch(`${d.sim.url}/goform/GetCertificate?_t=1`, { method: 'POST', headers: { 'X-Token': d.token }, body: form })).json();
    assert.is(installed.retvalue, 0, JSON.stringify(installed));
    const read = await d.call('SetRestParam');
    const { retvalue: _, ...rest } = read;
    assert.equal(await d.call('GetRestParam', { ...rest, IdleMinutes: Number(rest.IdleMinutes) === 15 ? 20 : 15 }), { retvalue: 0 });

    const log = await d.log();
    assert.equal(log.map((e) => e.Detail).slice(0, 4), ['GetRestParam: IdleMinutes', 'GetCertificate: Cert, Key', 'adduser: 77', 'wrong password'].slice(0, 4));
    assert.ok(log.some((e) => e.Detail === 'EditPwd: password'));
    const { rows, file, bytes } = await d.sheet();
    assert.is(file, 'oplog.xlsx');
    assert.equal(rows[0], ['Time', 'Kind', 'User', 'Address', 'Detail']);
    assert.equal(rows.slice(1).map((r) => r[4]), log.map((e) => e.Detail), 'the same entries, newest first');
    assert.equal(rows[1].slice(1, 4), ['Settings written', 'admin', '127.0.0.1']);
    const pem = (s: string) => s.split('\n').filter((l) => l && !l.startsWith('-----'));
    const secrets = [factoryPw, '583920', '619274', '702938', '86421357', '3141592653', ...pem(cert), ...pem(key)];
    const text = JSON.stringify(log) + JSON.stringify(rows) + bytes.toString('latin1');
    for (const s of secrets) assert.not.ok(text.includes(s), `${s.slice(0, 12)}… is not in the log`);
  } finally {
    await d.close();
  }
});

t(`the ring keeps the newest ${OPLOG_SIZE} (here 5) and drops the oldest; it survives a restart`, async () => {
  const d = await device({ oplogSize: 5 });
  try {
    for (let id = 1001; id <= 1008; id++) assert.is((await d.call('adduser', { UserID: String(id), UserName: 'R', Admin: 0, Group: 0, IdentifyMode: 0, Shift: 0 })).retvalue, 0);
    const want = ['1008', '1007', '1006', '1005', '1004'].map((id) => `adduser: ${id}`);
    assert.equal((await d.log()).map((e) => e.Detail), want);
    const r = await d.call('searchOperationLog', { Page: 1, PageSize: 10, Kind: 0 });
    assert.is(r.Total, 5);
    await d.close();
    const again = await device({ oplogSize: 5 }, { storeFile: d.storeFile });
    try {
      assert.equal((await again.log()).map((e) => e.Detail), ['', ...want.slice(0, 4)], 'kept in the store; the new sign-in pushed out the oldest');
    } finally {
      await again.close();
    }
  } finally {
    await d.close();
  }
});

t('paging, Kind, Start and End', async () => {
  clock = Date.UTC(2026, 2, 10, 12);
  const d = await device();
  try {
    for (let i = 0; i < 12; i++) assert.equal(await d.call('noteOperation', { Kind: 12 }), { retvalue: 0 });
    clock += 48 * HOUR;
    await d.login();
    await d.call('noteOperation', { Kind: 13 });
    const all = await d.log();
    assert.is(all.length, 15);
    const day1 = all[all.length - 1].Time.slice(0, 10);
    const day2 = all[0].Time.slice(0, 10);
    assert.ok(day1 < day2, `${day1} < ${day2}`);
    const page = await d.call('searchOperationLog', { Page: 2, PageSize: 10, Kind: 0 });
    assert.equal([page.Total, (page.List as Entry[]).length], [15, 5]);
    assert.equal(page.List, all.slice(10));
    assert.equal((await d.call('searchOperationLog', { Page: 3, PageSize: 10, Kind: 0 })).List, [], 'past the end: empty, the real Total');
    assert.equal((await d.log({ Kind: 12 })).length, 12);
    assert.equal((await d.log({ Kind: 1 })).map((e) => e.Kind), [1, 1]);
    assert.equal((await d.log({ Start: day2 })).length, 2);
    assert.equal((await d.log({ End: day1 })).length, 13);
    assert.equal((await d.log({ Start: day1, End: day1, Kind: 13 })).length, 0);
    const { rows, file } = await d.sheet({ Kind: '13', Start: day2, End: day2 });
    assert.is(file, `oplog-${day2}-${day2}.xlsx`);
    assert.equal(rows.slice(1).map((r) => r[1]), ['Restore']);
    assert.is(kindOf('Restore'), 13);
  } finally {
    clock = Date.now();
    await d.close();
  }
});

t('bad input answers 10003 / 10005 naming the field, and needs a session', async () => {
  const d = await device();
  try {
    const q = { Page: 1, PageSize: 10, Kind: 0 };
    assert.equal(await d.call('searchOperationLog', { ...q, Kind: Object.keys(OPLOG_KINDS).length + 1 }), { retvalue: 10005, msg: 'err.10005', field: 'Kind' });
    assert.equal(await d.call('searchOperationLog', { ...q, PageSize: 7 }), { retvalue: 10005, msg: 'err.10005', field: 'PageSize' });
    assert.equal(await d.call('searchOperationLog', { PageSize: 10, Kind: 0 }), { retvalue: 10003, msg: 'err.10003', field: 'Page' });
    assert.equal(await d.call('searchOperationLog', { ...q, Start: '2026-02-30' }), { retvalue: 10005, msg: 'err.10005', field: 'Start' });
    assert.equal(await d.call('searchOperationLog', { ...q, Start: '2026-03-02', End: '2026-03-01' }), { retvalue: 10005, msg: 'err.10005', field: 'End' });
    assert.equal(await d.call('DownloadOperationLog', { Kind: 0, Start: '2026-03-02', End: '2026-03-01' }), { retvalue: 10005, msg: 'err.10005', field: 'End' });
    assert.equal(await d.call('noteOperation', { Kind: 5 }), { retvalue: 10005, msg: 'err.10005', field: 'Kind' });
    assert.equal(await d.call('searchOperationLog', q, 'nope'), { retvalue: 10002, msg: 'err.10002' });
    assert.ok(CALLS.searchOperationLog.auth && CALLS.DownloadOperationLog.auth && CALLS.noteOperation.auth);
  } finally {
    await d.close();
  }
});

t.run();
