// The simulated terminal's Maintenance area over HTTP, as docs/API.md says it
// behaves: a restart that really stops answering and comes back on the same
// address, initialization, firmware upgrade (every refusal in the contract's
// order, the forced upgrade), the initialization card, the factory test's
// photo, the service commands, the serial-number keys and the test mode.
// The signature's refusals are tests/simulator/update-signature.test.ts.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { startSimulator, type Simulator } from '../../simulator/server.ts';
import { loadModel, type ModelOverrides } from '../../simulator/model.ts';
import { seedState } from '../../simulator/api.ts';
import { FORCED_UPGRADE_MS, PHOTO_SIZE } from '../../simulator/areas/maintenance.ts';
import { encodePng } from '../../simulator/png.ts';
import { makePackage } from '../../contract/firmware.ts';
import { CALLS, type CallName } from '../../contract/index.ts';
import { FIRMWARE_MAX_BYTES, PACKAGE, SIGNATURE } from '../../contract/maintenance.ts';
import { TEST_VENDOR_KEY } from '../support/keys/vendor.ts';
import { FACTORY_VERSION } from '../support/firmware.ts';
import { callSimulator } from '../support/helpers.ts';
import { TEST_ADMIN } from '../../hil/admin.ts';
import { ACTIVATE_FIRST } from '../../contract/codes.ts';

type Rec = Record<string, unknown>;
const tmp = () => mkdtempSync(join(tmpdir(), 'maint-'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Device {
  sim: Simulator;
  token: string;
  storeFile: string;
  /** A call with this device's token (or `token`). */
  call(name: CallName, params?: Rec, token?: string): Promise<Rec>;
  /** UpdateMachine with `data` as its File part. */
  upgrade(data: Uint8Array, token?: string): Promise<Rec>;
  login(password?: string): Promise<string>;
  close(): Promise<void>;
}

async function device(overrides: ModelOverrides = {}, options: { profile?: string; storeFile?: string; now?: () => number } = {}): Promise<Device> {
  const storeFile = options.storeFile ?? join(tmp(), 'store.json');
  const sim = await startSimulator({ activated: TEST_ADMIN.password, storeFile, model: loadModel(options.profile ?? 'default', { seedUsers: 20, restartMs: 150, ...overrides }), now: options.now });
  const login = async (password: string = TEST_ADMIN.password) => {
    const r = await callSimulator(sim.url, 'chklogin', { username: 'admin', password });
    assert.is(r.retvalue, 0, 'signed in');
    return r.token as string;
  };
  const d: Device = {
    sim,
    token: await login(),
    storeFile,
    call: (name, params = {}, token) => callSimulator(sim.url, name, params, token ?? d.token),
    async upgrade(data, token) {
      const form = new FormData();
      form.append('File', new Blob([new Uint8Array(data)], { type: 'application/octet-stream' }), 'fw.bin');
      // A failure says what the network said (a CI run once saw "fetch failed" alone on a 16 MiB package, not seen again).
      const res = await fetch(`${sim.url}/goform/UpdateMachine?_t=1`, { method: 'POST', headers: { 'X-Token': token ?? d.token }, body: form }).catch((e: Error) => {
        throw new Error(`UpdateMachine with ${data.length} bytes: ${e.message}: ${String((e.cause as Error | undefined)?.message ?? e.cause)}`);
      });
      return (await res.json()) as Rec;
    },
    login,
    close: () => sim.close(),
  };
  return d;
}

/** Whether anything answers HTTP at `url` now. */
async function answers(url: string): Promise<boolean> {
  try {
    await fetch(`${url}/`, { signal: AbortSignal.timeout(2000) });
    return true;
  } catch {
    return false;
  }
}

/** A package signed with the test key, which the default profile holds (tests/contract/firmware.test.ts and tests/simulator/update-signature.test.ts check the signature rules). */
const pkg = (version: string, extra: { model?: string; payload?: Uint8Array } = {}) => makePackage({ model: extra.model ?? 'T10', version, payload: extra.payload ?? Buffer.from('firmware image '.repeat(100)), key: TEST_VENDOR_KEY });
const err = (code: number, msg: string, field?: string) => (field === undefined ? { retvalue: code, msg } : { retvalue: code, msg, field });

// ---------------------------------------------------------------------------
const rs = suite('restart');

rs('RestartMachine answers 0, stops answering for restartMs, comes back on the same address; sessions end', async () => {
  const d = await device({ restartMs: 500 });
  try {
    const t0 = Date.now();
    assert.equal(await d.call('RestartMachine'), { retvalue: 0 });
    assert.ok(d.sim.restarting, 'a restart is under way');
    assert.not.ok(await answers(d.sim.url), 'nothing answers during the restart');
    await d.sim.whenUp();
    assert.ok(Date.now() - t0 >= 450, `down for restartMs (${Date.now() - t0} ms)`);
    assert.is(d.sim.restarting, null);
    assert.ok(await answers(d.sim.url), 'answers again');
    assert.equal(await d.call('SetInfoParam'), { retvalue: 10002, msg: 'err.10002' }, 'the old token is gone');
    const token = await d.login();
    assert.is((await d.call('SetInfoParam', {}, token)).retvalue, 0);
    // Uptime counts from the restart.
    assert.match((await d.call('ExecuteCommand', { Code: 100 }, token)).Output as string, /Uptime: 0 d 00:00:0[0-2]/);
  } finally {
    await d.close();
  }
});

rs('a restart keeps the store; restart() and whenUp() for harnesses', async () => {
  const d = await device();
  try {
    assert.is((await d.call('GetDebugParam', { Mode: 1 })).retvalue, 0);
    const r = d.sim.restart();
    assert.is(d.sim.restart(), r, 'one restart at a time');
    await r;
    assert.equal(await d.call('SetDebugParam'), { retvalue: 10002, msg: 'err.10002' }, 'the session ended with the restart');
    assert.equal(await d.call('SetDebugParam', {}, await d.login()), { retvalue: 0, Mode: 1 });
    await d.sim.whenUp();
  } finally {
    await d.close();
  }
});

rs('close() during a restart: it does not come back', async () => {
  // A restart of an hour: close() returning at all shows that it does not wait for restartMs (the
  // 30 s sentinel only keeps a broken close() from hanging the suite; closing takes milliseconds).
  const d = await device({ restartMs: 3_600_000 });
  assert.is((await d.call('RestartMachine')).retvalue, 0);
  let sentinel: NodeJS.Timeout | undefined;
  const first = await Promise.race([d.close().then(() => 'closed'), new Promise((r) => (sentinel = setTimeout(() => r('still waiting'), 30_000)))]);
  clearTimeout(sentinel);
  assert.is(first, 'closed', 'close does not wait for restartMs');
  await sleep(400);
  assert.not.ok(await answers(d.sim.url));
  assert.not.ok(d.sim.server.listening);
});

rs('RestartMachine needs a session', async () => {
  const d = await device();
  try {
    assert.equal(await d.call('RestartMachine', {}, ''), { retvalue: 10002, msg: 'err.10002' });
    assert.is(d.sim.restarting, null);
  } finally {
    await d.close();
  }
});
rs.run();

// ---------------------------------------------------------------------------
const init = suite('InitMachine');

init('everything back to a fresh store\'s state but the firmware and the serial-number keys; photos go; restarts', async () => {
  const d = await device();
  try {
    const profile = d.sim.model;
    // Change what InitMachine resets, and what it keeps.
    assert.equal(await d.upgrade(pkg('V2.7.0')), { retvalue: 0, Version: 'V2.7.0' });
    await d.sim.whenUp();
    d.token = await d.login();
    const keys = { Key1: 'AB12C', Key2: '00000', Key3: '99999', Key4: 'Q1W2E', Key5: 'ZZZZZ' };
    for (const [name, params] of [
      ['GetSNKeyParam', keys],
      ['GetDebugParam', { Mode: 2 }],
      ['GetLanguageSettingItem', { LanguageSettingItem: 0 }],
      ['GetKaoqinParam', { ...(await d.call('SetKaoqinParam')), RepeatTime: 7 }],
      ['adduser', { UserID: '5000', UserName: 'New Person', Admin: 0, Group: 0, IdentifyMode: 0, Shift: 0 }],
      ['deleteuser', { UserID: '2' }],
      ['EditPwd', { userid: 'admin', oldpwd: TEST_ADMIN.password, newpwd: '583920' }],
    ] as [CallName, Rec][]) {
      delete params.retvalue;
      assert.is((await d.call(name, params)).retvalue, 0, name);
    }
    const photo = encodePng(2, 2, new Uint8Array(12));
    const form = new FormData();
    form.append('UserID', '1');
    form.append('Photo', new Blob([new Uint8Array(photo)], { type: 'image/png' }), 'p.png');
    assert.equal(await (await fetch(`${d.sim.url}/goform/UploadUserPhoto?_t=1`, { method: 'POST', headers: { 'X-Token': d.token }, body: form })).json(), { retvalue: 0 });
    assert.ok(existsSync(`${d.storeFile}.photos/1`));

    const fresh0 = await d.call('SetInfoParam');
    assert.equal(await d.call('InitMachine'), { retvalue: 0 });
    assert.ok(d.sim.restarting, 'restarts');
    assert.ok(Number(fresh0.RecordCount) > 0, 'there were records');
    await d.sim.whenUp();

    const fresh = seedState(profile);
    const state = d.sim.store.get();
    assert.equal(state.users, fresh.users, 'the seed users, user 2 back, 5000 gone');
    assert.equal(state.admin, fresh.admin);
    assert.is(state.LanguageSettingItem, fresh.LanguageSettingItem);
    assert.equal(state.settings, { ...fresh.settings, SNKeyParam: keys }, 'factory settings, the keys kept');
    assert.is(state.firmware, 'V2.7.0', 'the firmware stays');
    assert.not.ok(existsSync(`${d.storeFile}.photos`), 'photos deleted');
    assert.equal(JSON.parse(readFileSync(d.storeFile, 'utf8')), state, 'on disk');

    // Over HTTP: the factory state (the chosen password is gone, the factory one only activates), then the factory values.
    assert.equal(await d.call('SetInfoParam'), { retvalue: 10002, msg: 'err.10002' });
    assert.is((await callSimulator(d.sim.url, 'chklogin', { username: 'admin', password: '583920' })).retvalue, 40302, 'the password chosen before is gone');
    assert.is((await callSimulator(d.sim.url, 'chklogin', { username: 'admin', password: TEST_ADMIN.password })).retvalue, 40302);
    d.token = await d.login(profile.admin.password);
    assert.equal(await d.call('SetKaoqinParam'), { retvalue: ACTIVATE_FIRST, msg: 'msg.activateFirst' }, 'the factory credential only activates');
    assert.equal(await d.call('Activate', { newpwd: TEST_ADMIN.password }), { retvalue: 0 });
    assert.is((await d.call('SetKaoqinParam')).RepeatTime, fresh.settings.KaoqinParam.RepeatTime);
    assert.equal(await d.call('SetDebugParam'), { retvalue: 0, Mode: 0 });
    assert.equal(await d.call('SetSNKeyParam'), { retvalue: 0, ...keys });
    assert.is((await d.call('SetInfoParam')).Build_Version, 'V2.7.0');
    assert.is((await d.call('userlist', { Page: 1, PageSize: 10 })).Total, 20);
    assert.is((await d.call('SetInfoParam')).RecordCount, 0, 'every record deleted');
    assert.match((await d.call('ExecuteCommand', { Code: 100 })).Output as string, /^Records: 0$/m);
  } finally {
    await d.close();
  }
});
init.run();

// ---------------------------------------------------------------------------
const up = suite('UpdateMachine');

up('every refusal, in the contract\'s order, changes nothing', async () => {
  const d = await device();
  try {
    const before = readFileSync(d.storeFile, 'utf8');
    const good = pkg('V2.6.19');
    const changed = (f: (b: Buffer) => void) => {
      const b = Buffer.from(good);
      f(b);
      return b;
    };
    const bad = (code: number, msg = `err.${code}`) => err(code, msg, 'File');
    assert.equal(await d.upgrade(Buffer.from('not a firmware file')), bad(10102), 'not a package');
    assert.equal(await d.upgrade(changed((b) => b.write('ZZFW', 0))), bad(10102), 'wrong magic');
    assert.equal(await d.upgrade(changed((b) => (b[4] = 2))), bad(10102), 'format version');
    assert.equal(await d.upgrade(good.subarray(0, good.length - 1)), bad(10102), 'length');
    assert.equal(await d.upgrade(pkg('V2.6.19', { model: 'T2' })), bad(10102), 'another model');
    assert.equal(await d.upgrade(pkg('V2.6.19', { model: 'Simulated terminal T10' })), bad(10102), 'the description is not the model');
    // Another model with a bad checksum: the model is checked first.
    const otherAndBroken = pkg('V2.6.19', { model: 'T2' });
    otherAndBroken[PACKAGE.header] ^= 1;
    assert.equal(await d.upgrade(otherAndBroken), bad(10102), 'model before checksum');
    const broken = changed((b) => (b[PACKAGE.header] ^= 1));
    assert.equal(await d.upgrade(broken), bad(10103, 'msg.fwChecksum'), 'payload changed');
    const brokenAndOld = pkg('V1.0');
    brokenAndOld[PACKAGE.sha256] ^= 1;
    assert.equal(await d.upgrade(brokenAndOld), bad(10103, 'msg.fwChecksum'), 'checksum before version');
    assert.equal(await d.upgrade(pkg(FACTORY_VERSION)), bad(10104, 'msg.fwNotNewer'), 'the same version');
    assert.equal(await d.upgrade(pkg('v2.6.18.2026.11.0')), bad(10104, 'msg.fwNotNewer'), 'the same version, written otherwise');
    assert.equal(await d.upgrade(pkg('V2.6.9')), bad(10104, 'msg.fwNotNewer'), 'older');
    const noFile = await fetch(`${d.sim.url}/goform/UpdateMachine?_t=1`, { method: 'POST', headers: { 'X-Token': d.token }, body: new FormData() });
    assert.equal(await noFile.json(), err(10003, 'err.10003', 'File'), 'no file');
    assert.is(readFileSync(d.storeFile, 'utf8'), before, 'the store is as it was');
    assert.is(d.sim.restarting, null, 'no restart');
    assert.is((await d.call('SetInfoParam')).Build_Version, FACTORY_VERSION);
  } finally {
    await d.close();
  }
});

up('too large: 10101, for a file just over the limit and a body far over it', async () => {
  // Every package is made before the simulated terminal starts: making a 16 MiB one blocks this process, the
  // terminal's too, and a block longer than its keep-alive (then Node's 5 s, now a minute) closed an idle
  // connection just as the next upload was written on it (ECONNRESET in a clean-clone npm test).
  const over = Buffer.alloc(FIRMWARE_MAX_BYTES + 1);
  const farOver = Buffer.alloc(FIRMWARE_MAX_BYTES + (1 << 20));
  // A package that is just within the limit reaches the checks (here: not newer).
  const full = pkg('V1.0', { payload: Buffer.alloc(FIRMWARE_MAX_BYTES - PACKAGE.header - SIGNATURE.bytes) });
  const d = await device();
  try {
    assert.equal(await d.upgrade(over), err(10101, 'err.10101', 'File'), 'one byte over (a package of that size too)');
    assert.equal(await d.upgrade(farOver), err(10101, 'err.10101', 'File'), 'a body over the limit');
    assert.is(full.length, FIRMWARE_MAX_BYTES);
    assert.equal(await d.upgrade(full), err(10104, 'msg.fwNotNewer', 'File'));
    // Other multipart calls keep their own limit.
    const form = new FormData();
    form.append('File', new Blob([new Uint8Array(2 << 20)]), 'users.csv');
    const r = await fetch(`${d.sim.url}/goform/GetExcelAddUser?_t=1`, { method: 'POST', headers: { 'X-Token': d.token }, body: form });
    assert.is(((await r.json()) as Rec).retvalue, 10101);
  } finally {
    await d.close();
  }
});

up('a good package: answers its version, restarts into it, SetInfoParam shows it, it survives the simulator', async () => {
  const storeFile = join(tmp(), 'store.json');
  let d = await device({}, { storeFile });
  try {
    assert.equal(await d.upgrade(pkg('V2.6.19')), { retvalue: 0, Version: 'V2.6.19' });
    assert.ok(d.sim.restarting);
    assert.not.ok(await answers(d.sim.url));
    await d.sim.whenUp();
    assert.equal(await d.call('SetInfoParam'), { retvalue: 10002, msg: 'err.10002' });
    d.token = await d.login();
    const info = await d.call('SetInfoParam');
    assert.is(info.Build_Version, 'V2.6.19');
    assert.is(info.Model, 'T10', 'the model code');
    assert.is(JSON.parse(readFileSync(storeFile, 'utf8')).firmware, 'V2.6.19', 'stored');
    // Now the same version is not newer, a newer one is.
    assert.equal(await d.upgrade(pkg('V2.6.19')), err(10104, 'msg.fwNotNewer', 'File'));
    await d.close();
    d = await device({}, { storeFile });
    assert.is((await d.call('SetInfoParam')).Build_Version, 'V2.6.19', 'after the simulator itself restarted');
    assert.equal(await d.upgrade(pkg('V2.10')), { retvalue: 0, Version: 'V2.10' });
    await d.sim.whenUp();
  } finally {
    await d.close();
  }
});

up('the forced upgrade: the right password opens it for this session only; any version of the model, once', async () => {
  let clock = Date.now();
  // Sessions idle for an hour stay open here: the clock jumps past the forced upgrade's 10 minutes.
  const d = await device({ sessionIdleMs: 3_600_000 }, { now: () => clock });
  try {
    const other = await d.login();
    assert.equal(await d.call('SetWebUpgradeMode', { Password: TEST_ADMIN.password }), err(40302, 'err.40302', 'Password'), 'the administrator password is not it');
    assert.equal(await d.upgrade(pkg('V2.6.0')), err(10104, 'msg.fwNotNewer', 'File'), 'a wrong password opens nothing');
    assert.equal(await d.call('SetWebUpgradeMode', { Password: '888888' }, ''), { retvalue: 10002, msg: 'err.10002' }, 'needs a session');
    assert.equal(await d.call('SetWebUpgradeMode', { Password: '888888' }), { retvalue: 0 });
    assert.equal(await d.upgrade(pkg('V2.6.0'), other), err(10104, 'msg.fwNotNewer', 'File'), 'not for another session');
    // Refusals for other reasons leave it open; another model is still refused.
    const broken = pkg('V2.6.0');
    broken[PACKAGE.header] ^= 1;
    assert.equal(await d.upgrade(broken), err(10103, 'msg.fwChecksum', 'File'));
    assert.equal(await d.upgrade(pkg('V2.6.0', { model: 'T2' })), err(10102, 'err.10102', 'File'));
    assert.equal(await d.upgrade(pkg('V2.6.0')), { retvalue: 0, Version: 'V2.6.0' }, 'an older version');
    await d.sim.whenUp();
    d.token = await d.login();
    assert.is((await d.call('SetInfoParam')).Build_Version, 'V2.6.0');
    assert.equal(await d.upgrade(pkg('V2.5')), err(10104, 'msg.fwNotNewer', 'File'), 'the restart ended it');
    // The same version again, forced; then it has expired after FORCED_UPGRADE_MS.
    assert.equal(await d.call('SetWebUpgradeMode', { Password: '888888' }), { retvalue: 0 });
    clock += FORCED_UPGRADE_MS + 1;
    assert.equal(await d.upgrade(pkg('V2.6.0')), err(10104, 'msg.fwNotNewer', 'File'), 'expired');
    assert.equal(await d.call('SetWebUpgradeMode', { Password: '888888' }), { retvalue: 0 });
    clock += FORCED_UPGRADE_MS - 1000;
    assert.equal(await d.upgrade(pkg('V2.6.0')), { retvalue: 0, Version: 'V2.6.0' }, 'the same version, within the time');
    await d.sim.whenUp();
  } finally {
    await d.close();
  }
});

up('the model code is the profile\'s: lite is T2', async () => {
  const d = await device({}, { profile: 'lite' });
  try {
    assert.is((await d.call('SetInfoParam')).Model, 'T2');
    assert.equal(await d.upgrade(pkg('V3')), err(10102, 'err.10102', 'File'));
    assert.equal(await d.upgrade(pkg('V3', { model: 'T2' })), { retvalue: 0, Version: 'V3' });
    await d.sim.whenUp();
  } finally {
    await d.close();
  }
});
up.run();

// ---------------------------------------------------------------------------
const card = suite('InitAdminCard');

card('removes the card of every administrator, nothing else; the card numbers are free again', async () => {
  const d = await device();
  try {
    const person = (UserID: string, Admin: number, CardNo: string, CardType = 1) => ({ UserID, UserName: `P ${UserID}`, Admin, Group: 0, IdentifyMode: 0, Shift: 0, CardNo, CardType });
    for (const u of [person('901', 1, '777001'), person('902', 16, '777002', 0), person('903', 0, '777003'), person('904', 3, '')])
      assert.is((await d.call('adduser', u)).retvalue, 0, u.UserID);
    const before = d.sim.store.get().users;
    const admins = before.filter((u) => u.Admin >= 1 && u.CardNo);
    assert.ok(admins.length >= 2);
    assert.equal(await d.call('InitAdminCard'), { retvalue: 0, Cleared: admins.length });
    const after = d.sim.store.get().users;
    for (const u of after) {
      const old = before.find((x) => x.UserID === u.UserID)!;
      if (u.Admin >= 1) assert.equal(u, { ...old, CardNo: '', CardType: 0 }, u.UserID);
      else assert.equal(u, old, u.UserID);
    }
    assert.is((await d.call('GetUserInfo', { UserID: '901' })).CardNo, '');
    assert.is((await d.call('GetUserInfo', { UserID: '903' })).CardNo, '777003');
    assert.is((await d.call('adduser', person('905', 0, '777001'))).retvalue, 0, 'the card is free');
    assert.equal(await d.call('adduser', person('906', 0, '777003')), { retvalue: 40403, msg: 'err.40403', field: 'CardNo' }, 'a user\'s card is not');
    assert.equal(await d.call('InitAdminCard'), { retvalue: 0, Cleared: 0 }, 'none left');
    assert.equal(await d.call('InitAdminCard', {}, ''), { retvalue: 10002, msg: 'err.10002' });
  } finally {
    await d.close();
  }
});
card.run();

// ---------------------------------------------------------------------------
const misc = suite('photo, commands, keys, test mode');
let d: Device;
misc.before(async () => {
  d = await device();
});
misc.after(() => d.close());

/** The chunks of a PNG, each CRC checked. */
function pngChunks(data: Buffer): { type: string; data: Buffer }[] {
  const out: { type: string; data: Buffer }[] = [];
  for (let at = 8; at < data.length; ) {
    const len = data.readUInt32BE(at);
    const type = data.toString('latin1', at + 4, at + 8);
    const body = data.subarray(at + 8, at + 8 + len);
    const crc = data.readUInt32BE(at + 8 + len);
    // The test's own CRC-32, not the simulator's.
    const table = Array.from({ length: 256 }, (_, n) => {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      return c >>> 0;
    });
    let c = 0xffffffff;
    for (const b of data.subarray(at + 4, at + 8 + len)) c = table[(c ^ b) & 0xff] ^ (c >>> 8);
    assert.is((c ^ 0xffffffff) >>> 0, crc, `CRC of ${type}`);
    out.push({ type, data: body });
    at += 12 + len;
  }
  return out;
}

misc('test_takephoto: a PNG, 160 x 120, different at every call; once activated only with a session', async () => {
  // An activated terminal: no photo for a stranger, forged token or none.
  for (const token of ['', 'forged']) {
    const res = await fetch(`${d.sim.url}/goform/test_takephoto?_t=1`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Token': token }, body: '{}' });
    assert.equal(await res.json(), { retvalue: 10002, msg: 'err.10002' }, `token "${token}"`);
  }
  const shot = async () => {
    const res = await fetch(`${d.sim.url}/goform/test_takephoto?_t=1`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Token': d.token }, body: '{}' });
    assert.is(res.status, 200);
    assert.is(res.headers.get('content-type'), 'image/png');
    return Buffer.from(await res.arrayBuffer());
  };
  const a = await shot();
  assert.equal([...a.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
  const chunks = pngChunks(a);
  assert.equal(
    chunks.map((c) => c.type),
    ['IHDR', 'IDAT', 'IEND'],
  );
  const ihdr = chunks[0].data;
  assert.equal([ihdr.readUInt32BE(0), ihdr.readUInt32BE(4), ihdr[8], ihdr[9]], [PHOTO_SIZE.width, PHOTO_SIZE.height, 8, 2]);
  const raw = inflateSync(chunks[1].data);
  assert.is(raw.length, (PHOTO_SIZE.width * 3 + 1) * PHOTO_SIZE.height);
  const b = await shot();
  assert.not.ok(a.equals(b), 'another picture');
  // Unknown fields are still refused.
  const r = await fetch(`${d.sim.url}/goform/test_takephoto?_t=1`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Token': d.token }, body: '{"x":1}' });
  assert.equal(await r.json(), { retvalue: 10005, msg: 'err.10005', field: 'x' });
});

misc('ExecuteCommand: the documented codes answer plain text; any other code 10006', async () => {
  const run = async (Code: number) => {
    const r = await d.call('ExecuteCommand', { Code });
    assert.is(r.retvalue, 0, String(Code));
    return r.Output as string;
  };
  const status = await run(100);
  const records = (await d.call('SetInfoParam')).RecordCount;
  assert.ok(Number(records) > 0);
  for (const line of ['Model: T10', `Firmware: ${FACTORY_VERSION}`, 'Serial: SIM0000000001', 'Users: 20', `Records: ${records}`]) assert.ok(status.split('\n').includes(line), line);
  assert.match(status, /^Uptime: \d+ d \d\d:\d\d:\d\d$/m);
  const net = await run(101);
  for (const line of ['IP address: 192.168.1.201', 'Subnet mask: 255.255.255.0', 'Gateway: 192.168.1.1', 'Ethernet MAC: 02:00:5e:10:00:01', 'Wi-Fi MAC: 02:00:5e:10:00:02']) assert.ok(net.split('\n').includes(line), line);
  assert.is(await run(200), 'Beep');
  assert.is(await run(300), 'Door opened: relay on for 5 s');
  const access = (await d.call('SetAccessControl')) as Rec;
  delete access.retvalue;
  assert.is((await d.call('GetAccessControl', { ...access, RelayDelay: 9 })).retvalue, 0);
  assert.is(await run(300), 'Door opened: relay on for 9 s', 'the relay delay as set');
  assert.match(await run(400), /^\/var\/log\/terminal-\d{8}-\d{6}\.log$/);
  for (const Code of [0, 1, 99, 101_0, 500, 99999]) assert.equal(await d.call('ExecuteCommand', { Code }), { retvalue: 10006, msg: 'msg.badCommand', field: 'Code' }, String(Code));
  assert.equal(await d.call('ExecuteCommand', { Code: 100000 }), { retvalue: 10005, msg: 'err.10005', field: 'Code' });
  assert.equal(await d.call('ExecuteCommand', { Code: '100; reboot' }), { retvalue: 10005, msg: 'err.10005', field: 'Code' });
  assert.equal(await d.call('ExecuteCommand', { Code: 100 }, ''), { retvalue: 10002, msg: 'err.10002' });
});

misc('serial-number keys: stored and read back; a malformed, empty or missing key refused', async () => {
  assert.equal(await d.call('SetSNKeyParam'), { retvalue: 0, Key1: '', Key2: '', Key3: '', Key4: '', Key5: '' });
  // An empty body, or keys left empty, never answers 0.
  assert.equal(await d.call('GetSNKeyParam', {}), { retvalue: 10003, msg: 'err.10003', field: 'Key1' });
  assert.equal(await d.call('GetSNKeyParam', { Key1: '', Key2: '', Key3: '', Key4: '', Key5: '' }), { retvalue: 10005, msg: 'err.10005', field: 'Key1' });
  const keys = { Key1: 'A1B2C', Key2: '00000', Key3: 'K3K3K', Key4: 'ZZZZZ', Key5: '12345' };
  assert.equal(await d.call('GetSNKeyParam', { ...keys, Key3: '' }), { retvalue: 10005, msg: 'err.10005', field: 'Key3' });
  const { Key4: _, ...four } = keys;
  assert.equal(await d.call('GetSNKeyParam', four), { retvalue: 10003, msg: 'err.10003', field: 'Key4' });
  assert.equal(await d.call('SetSNKeyParam'), { retvalue: 0, Key1: '', Key2: '', Key3: '', Key4: '', Key5: '' }, 'nothing stored');
  assert.equal(await d.call('GetSNKeyParam', keys), { retvalue: 0 });
  assert.equal(await d.call('SetSNKeyParam'), { retvalue: 0, ...keys });
  assert.equal(d.sim.store.get().settings.SNKeyParam, keys, 'in the store');
  for (const bad of ['a1b2c', 'A1B2', 'A1B2CD', 'A-B2C']) assert.equal(await d.call('GetSNKeyParam', { ...keys, Key2: bad }), { retvalue: 10005, msg: 'err.10005', field: 'Key2' }, bad);
  assert.equal(await d.call('GetSNKeyParam', { ...keys, Key6: '' }), { retvalue: 10005, msg: 'err.10005', field: 'Key6' });
  assert.equal(await d.call('SetSNKeyParam'), { retvalue: 0, ...keys }, 'unchanged');
  assert.equal(await d.call('SetSNKeyParam', {}, ''), { retvalue: 10002, msg: 'err.10002' }, 'needs a session');
  assert.equal(await d.call('GetSNKeyParam', keys, ''), { retvalue: 10002, msg: 'err.10002' });
});

misc('test mode: without a session in the factory state only; stored', async () => {
  assert.is(CALLS.SetDebugParam.auth, 'factory');
  // This terminal is activated: a stranger can neither read nor change the test mode.
  for (const token of ['', 'forged']) {
    assert.equal(await d.call('SetDebugParam', {}, token), { retvalue: 10002, msg: 'err.10002' });
    assert.equal(await d.call('GetDebugParam', { Mode: 1 }, token), { retvalue: 10002, msg: 'err.10002' });
  }
  assert.equal(await d.call('GetDebugParam', { Mode: 2 }), { retvalue: 0 }, 'with a session');
  assert.equal(await d.call('SetDebugParam'), { retvalue: 0, Mode: 2 });
  assert.equal(d.sim.store.get().settings.DebugParam, { Mode: 2 });
  assert.equal(await d.call('GetDebugParam', { Mode: 3 }), { retvalue: 10005, msg: 'err.10005', field: 'Mode' });
  assert.equal(await d.call('GetDebugParam', {}), { retvalue: 10003, msg: 'err.10003', field: 'Mode' });
  assert.equal(await d.call('GetDebugParam', { Mode: 0 }), { retvalue: 0 });
  // A terminal in its factory state: /test is open, as the factory's test station needs it.
  const factory = await startSimulator({ storeFile: join(tmp(), 'store.json'), model: loadModel('default', { seedUsers: 0, seedRecords: 0 }) });
  try {
    assert.equal(await callSimulator(factory.url, 'GetDebugParam', { Mode: 1 }, ''), { retvalue: 0 });
    assert.equal(await callSimulator(factory.url, 'SetDebugParam', {}, ''), { retvalue: 0, Mode: 1 });
    const photo = await fetch(`${factory.url}/goform/test_takephoto?_t=1`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    assert.is(photo.headers.get('content-type'), 'image/png');
    assert.equal(await callSimulator(factory.url, 'SetSNKeyParam', {}, ''), { retvalue: 10002, msg: 'err.10002' }, 'the keys need a session even so');
  } finally {
    await factory.close();
  }
});
misc.run();
