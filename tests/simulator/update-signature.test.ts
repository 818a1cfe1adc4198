// The simulated terminal's UpdateMachine checking the signature: each failure refused with its
// code, in the contract's order, changing nothing, also through the forced upgrade (/up); the
// brand's keys it holds, key rotation, and a good package installing.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSimulator, type SimulatorOptions } from '../../simulator/server.ts';
import { loadModel, type ModelOverrides } from '../../simulator/model.ts';
import { PACKAGE, SIGNATURE } from '../../contract/maintenance.ts';
import type { CallName } from '../../contract/index.ts';
import { FW_BAD_SIGNATURE, FW_CHECKSUM, FW_NOT_NEWER, FW_UNKNOWN_KEY, FW_UNSIGNED } from '../../contract/codes.ts';
import { callSimulator } from '../support/helpers.ts';
import { TEST_ADMIN } from '../../hil/admin.ts';
import { TEST_VENDOR_KEY } from '../support/keys/vendor.ts';
import { changed, FACTORY_VERSION, OTHER_KEY, OTHER_PUBLIC, payload, modelKey, sha256, signed, TEST_PUBLIC, tmp, unsigned } from '../support/firmware.ts';

type Rec = Record<string, unknown>;

const sim = suite('UpdateMachine: the signature');

interface Device {
  url: string;
  storeFile: string;
  token: string;
  call(name: CallName, params?: Rec): Promise<Rec>;
  upgrade(data: Uint8Array): Promise<Rec>;
  info(): Promise<Rec>;
  up(): Promise<void>;
  restarting(): boolean;
  close(): Promise<void>;
}

async function device(overrides: ModelOverrides = {}, options: Partial<SimulatorOptions> = {}): Promise<Device> {
  const storeFile = join(tmp(), 'store.json');
  const s = await startSimulator({ activated: TEST_ADMIN.password, storeFile, model: loadModel('default', { seedUsers: 2, seedRecords: 0, restartMs: 100, ...overrides }), ...options });
  const login = async () => (await callSimulator(s.url, 'chklogin', { username: TEST_ADMIN.username, password: TEST_ADMIN.password })).token as string;
  const d: Device = {
    url: s.url,
    storeFile,
    token: await login(),
    call: (name, params = {}) => callSimulator(s.url, name, params, d.token) as Promise<Rec>,
    async upgrade(data) {
      const form = new FormData();
      form.append('File', new Blob([new Uint8Array(data)], { type: 'application/octet-stream' }), 'fw.bin');
      return (await (await fetch(`${s.url}/goform/UpdateMachine?_t=1`, { method: 'POST', headers: { 'X-Token': d.token }, body: form })).json()) as Rec;
    },
    info: () => d.call('SetInfoParam'),
    async up() {
      await s.whenUp();
      d.token = await login();
    },
    restarting: () => s.restarting !== null,
    close: () => s.close(),
  };
  return d;
}

const refused = (code: number, msg: string) => ({ retvalue: code, msg, field: 'File' });
const UNSIGNED = refused(FW_UNSIGNED, 'msg.fwUnsigned');
const BAD = refused(FW_BAD_SIGNATURE, 'msg.fwBadSignature');
const UNKNOWN = refused(FW_UNKNOWN_KEY, 'msg.fwUnknownKey');

sim('each failed signature is refused with its code, in the contract\'s order, and changes nothing', async () => {
  const d = await device();
  try {
    const before = readFileSync(d.storeFile, 'utf8');
    const good = signed('V2.6.19');
    assert.equal(await d.upgrade(unsigned('V2.6.19')), UNSIGNED, 'unsigned');
    assert.equal(await d.upgrade(changed(good, (c) => (c[PACKAGE.firmware[0] + 5] = 0x39))), BAD, 'a header byte changed after signing');
    const payloadChanged = changed(good, (c) => {
      c[PACKAGE.header + 3] ^= 1;
      sha256(c.subarray(PACKAGE.header, PACKAGE.header + payload.length)).copy(c, PACKAGE.sha256);
    });
    assert.equal(await d.upgrade(payloadChanged), BAD, 'a payload byte changed after signing, the SHA-256 made to match');
    assert.equal(await d.upgrade(changed(good, (c) => (c[c.length - SIGNATURE.bytes + 4] = 2))), BAD, 'not Ed25519');
    assert.equal(await d.upgrade(signed('V2.6.19', OTHER_KEY)), UNKNOWN, 'a key the terminal does not hold');
    // The order: model and checksum before the signature, the signature before the version.
    assert.equal(await d.upgrade(unsigned('V2.6.19', 'T2')), refused(10102, 'err.10102'), 'another model, unsigned');
    assert.equal(await d.upgrade(changed(unsigned('V2.6.19'), (c) => (c[PACKAGE.header] ^= 1))), refused(FW_CHECKSUM, 'msg.fwChecksum'), 'checksum before the signature');
    assert.equal(await d.upgrade(unsigned(FACTORY_VERSION)), UNSIGNED, 'unsigned before not newer');
    assert.equal(await d.upgrade(signed('V1.0', OTHER_KEY)), UNKNOWN, 'unknown key before not newer');
    assert.equal(await d.upgrade(changed(signed('V1.0'), (c) => (c[c.length - 1] ^= 1))), BAD, 'bad signature before not newer');
    assert.equal(await d.upgrade(changed(signed('V1.0', OTHER_KEY), (c) => (c[c.length - 1] ^= 1))), UNKNOWN, 'the key is looked up before the signature is checked');
    assert.equal(await d.upgrade(signed(FACTORY_VERSION)), refused(FW_NOT_NEWER, 'msg.fwNotNewer'), 'a good signature, not newer');
    assert.is(readFileSync(d.storeFile, 'utf8'), before, 'the store is as it was');
    assert.not.ok(d.restarting(), 'no restart');
    assert.is((await d.info()).Build_Version, FACTORY_VERSION);
    // A good package installs.
    assert.equal(await d.upgrade(good), { retvalue: 0, Version: 'V2.6.19' });
    assert.ok(d.restarting());
    await d.up();
    assert.is((await d.info()).Build_Version, 'V2.6.19');
  } finally {
    await d.close();
  }
});

sim('the forced upgrade (/up) skips "not newer" only, never the signature', async () => {
  const d = await device();
  try {
    assert.equal(await d.call('SetWebUpgradeMode', { Password: '888888' }), { retvalue: 0 });
    const before = readFileSync(d.storeFile, 'utf8');
    assert.equal(await d.upgrade(unsigned('V2.0')), UNSIGNED);
    assert.equal(await d.upgrade(signed('V2.0', OTHER_KEY)), UNKNOWN);
    assert.equal(await d.upgrade(changed(signed('V2.0'), (c) => (c[c.length - 1] ^= 1))), BAD);
    assert.equal(await d.upgrade(unsigned(FACTORY_VERSION)), UNSIGNED, 'not even the running version again');
    assert.is(readFileSync(d.storeFile, 'utf8'), before);
    assert.not.ok(d.restarting());
    // Still open after those refusals: a signed older package installs.
    assert.equal(await d.upgrade(signed('V2.0')), { retvalue: 0, Version: 'V2.0' });
    await d.up();
    assert.is((await d.info()).Build_Version, 'V2.0');
  } finally {
    await d.close();
  }
});

sim('the terminal holds its brand\'s keys: from SimulatorOptions.brand, else the site\'s manifest, else the default list', async () => {
  const firmwareKeys = { default: [TEST_PUBLIC], nice: [OTHER_PUBLIC] };
  const site = join(tmp(), 'site');
  mkdirSync(site);
  writeFileSync(join(site, 'manifest.json'), JSON.stringify({ brand: 'nice', files: [] }));
  const cases: [string, Partial<SimulatorOptions>, KeyObject, KeyObject][] = [
    ['options.brand nice', { brand: 'nice' }, OTHER_KEY, TEST_VENDOR_KEY],
    ['the manifest\'s brand nice', { siteDir: site }, OTHER_KEY, TEST_VENDOR_KEY],
    ['options.brand over the manifest', { siteDir: site, brand: 'ia' }, TEST_VENDOR_KEY, OTHER_KEY],
    ['a brand with no list of its own: default', { brand: 'anviz' }, TEST_VENDOR_KEY, OTHER_KEY],
    ['no brand: default', {}, TEST_VENDOR_KEY, OTHER_KEY],
    ['a name that is no brand but an Object property: default', { brand: 'constructor' }, TEST_VENDOR_KEY, OTHER_KEY],
  ];
  for (const [what, options, held, foreign] of cases) {
    const d = await device({ firmwareKeys }, options);
    try {
      assert.equal(await d.upgrade(signed('V2.7', foreign)), UNKNOWN, `${what}: the other brand's key`);
      assert.equal(await d.upgrade(signed('V2.7', held)), { retvalue: 0, Version: 'V2.7' }, `${what}: its own key`);
      await d.up();
    } finally {
      await d.close();
    }
  }
});

sim('key rotation: a brand holding the old and the new key takes both; once the old is dropped, only the new', async () => {
  const NEW = generateKeyPairSync('ed25519').privateKey;
  const both = await device({ firmwareKeys: { default: [TEST_PUBLIC, modelKey(NEW)] } });
  try {
    assert.equal(await both.upgrade(signed('V2.7', TEST_VENDOR_KEY)), { retvalue: 0, Version: 'V2.7' }, 'the old key');
    await both.up();
    assert.equal(await both.upgrade(signed('V2.8', NEW)), { retvalue: 0, Version: 'V2.8' }, 'the new key');
    await both.up();
  } finally {
    await both.close();
  }
  const dropped = await device({ firmwareKeys: { default: [modelKey(NEW)] } });
  try {
    assert.equal(await dropped.upgrade(signed('V2.7', TEST_VENDOR_KEY)), UNKNOWN, 'the old key, withdrawn');
    assert.equal(await dropped.upgrade(signed('V2.7', NEW)), { retvalue: 0, Version: 'V2.7' });
    await dropped.up();
  } finally {
    await dropped.close();
  }
});
sim.run();
