// Simulated terminal: the Maintenance area (contract/maintenance.ts): restart,
// initialization, firmware upgrade (plain and forced), the initialization
// card, the factory test's photo and the service commands. A restart is the
// server's (ctx.restart(); ../restart.ts): the reply goes out, then the
// terminal stops answering for the model's restartMs and every session ends.
//
// SetSNKeyParam / GetSNKeyParam and SetDebugParam / GetDebugParam are settings
// pairs by shape (a GET Set* answering what a POST Get* takes), so the generic
// pair handlers of ../settings.ts serve them from the store (settings
// SNKeyParam and DebugParam; empty keys and Mode 0 at the factory), with the
// contract's validation (a key that is not five digits or capitals: 10005)
// and its auth (DebugParam without a session). Nothing here overrides them.
//
// What lives only in memory, per running simulator: the forced-upgrade
// permission of a session (SetWebUpgradeMode; it ends with the session, so a
// restart ends it) and the count of photos taken (it only makes each picture
// differ).
import { rmSync } from 'node:fs';
import { encodePng } from '../png.ts';
import { COMMANDS, FIRMWARE_MAX_BYTES } from '../../contract/maintenance.ts';
import { FW_BAD_SIGNATURE, FW_CHECKSUM, FW_NOT_NEWER, FW_UNKNOWN_KEY, FW_UNSIGNED, UNKNOWN_COMMAND } from '../../contract/codes.ts';
import { checkSignature, isNewer, readPackage, type SignatureVerdict } from '../../contract/firmware.ts';
import { firmwareKeysFor } from '../model.ts';
import { refuse, type CallImpl, type Context, type DeviceState, type FileReply, type Session, type Upload, type User } from '../types.ts';
import { clearRecords, recordCount } from './records/generate.ts';
import { endEnrolment } from './users.ts';
import { userCounts } from './users/list.ts';
import { seeds as networkSeeds } from './network.ts';


/** The firmware the terminal runs: the last upgrade's, else the model's. */
const running = (ctx: Context) => ctx.store.get().firmware ?? ctx.model.Build_Version;

/** A settings pair's values: the store's over the area's factory values. */
const settings = (ctx: Context, seeds: Record<string, Record<string, unknown>>, pair: string) => ({ ...seeds[pair], ...ctx.store.get().settings[pair] });

// ---------------------------------------------------------------------------
// Forced upgrade (SetWebUpgradeMode): per session, in memory.

/**
 * How long the forced upgrade stays open after SetWebUpgradeMode: the next
 * UpdateMachine of the session within this time may install any version of
 * the model. It also ends with the session (sign-out, idle, restart) and
 * once a package is installed (which restarts the terminal anyway).
 */
export const FORCED_UPGRADE_MS = 10 * 60 * 1000;
/** Session -> when its forced upgrade ends (ctx.now()'s clock). */
const FORCED = new WeakMap<Session, number>();

const forced = (ctx: Context) => {
  const until = ctx.session ? FORCED.get(ctx.session) : undefined;
  return until !== undefined && ctx.now() < until;
};

// ---------------------------------------------------------------------------
// Initialization

/**
 * InitMachine: the store becomes a fresh store's (ctx.factory(): the
 * model's factory settings, administrator, language switch and seed users,
 * `seedUsers` of them; a real terminal's factory state has none, a model
 * with seedUsers 0 shows that), except what the terminal keeps: the
 * installed firmware and the serial-number keys (SNKeyParam, written at the
 * factory: they identify the device, as its serial does). Then the photos
 * folder goes, and every record (areas/records.ts: they are left as they are
 * here, not seeded again, and then deleted there).
 */
async function initialize(ctx: Context): Promise<void> {
  const fresh = ctx.factory();
  // An enrolment under way would enrol a user who is gone.
  endEnrolment(ctx.store);
  await ctx.store.update((s) => {
    // The operation log survives too: the initialization itself is in it (docs/API.md, "Operation log").
    const { firmware, records, oplog } = s;
    const snKeys = s.settings.SNKeyParam;
    const draft = s as unknown as Record<string, unknown>;
    // Whatever an area keeps beside the known fields goes too (it is not in a fresh store).
    for (const k of Object.keys(draft)) if (!Object.prototype.hasOwnProperty.call(fresh, k)) delete draft[k];
    Object.assign(s, fresh satisfies DeviceState, { records });
    if (firmware !== undefined) s.firmware = firmware;
    if (oplog) s.oplog = oplog;
    if (snKeys) s.settings.SNKeyParam = snKeys;
  });
  // The photos folder of areas/users.ts (<store>.photos): no user has a photo now.
  rmSync(`${ctx.store.file}.photos`, { recursive: true, force: true });
  await clearRecords(ctx);
}

// ---------------------------------------------------------------------------
// Firmware upgrade

/** The code of each signature that is not good (checkSignature gives them in the contract's order). */
const SIGNATURE_CODES = new Map<SignatureVerdict, number>([
  ['unsigned', FW_UNSIGNED],
  ['not-ed25519', FW_BAD_SIGNATURE],
  ['unknown-key', FW_UNKNOWN_KEY],
  ['bad', FW_BAD_SIGNATURE],
]);

/**
 * UpdateMachine's checks, in the contract's order: size (10101), a package
 * for this model (10102), checksum (10103), signed (10105) with Ed25519
 * (10106) by a key of the terminal's brand (10107) and verified (10106),
 * newer than the running firmware unless forced (10104; the forced upgrade
 * skips this one check only). Nothing changes before all have passed.
 */
async function upgrade(ctx: Context, file: Upload): Promise<{ Version: string }> {
  if (file.data.length > FIRMWARE_MAX_BYTES) refuse(10101, { field: 'File' });
  const pkg = readPackage(file.data);
  if (!pkg || pkg.model !== ctx.model.modelCode) return refuse(10102, { field: 'File' });
  if (!pkg.intact) refuse(FW_CHECKSUM, { field: 'File' });
  const code = SIGNATURE_CODES.get(checkSignature(pkg, firmwareKeysFor(ctx.model, ctx.brand)));
  if (code !== undefined) refuse(code, { field: 'File' });
  if (!isNewer(pkg.version, running(ctx)) && !forced(ctx)) refuse(FW_NOT_NEWER, { field: 'File' });
  // The payload itself is not kept: the simulated terminal "runs" the version it names.
  await ctx.store.update((s) => {
    s.firmware = pkg.version;
  });
  if (ctx.session) FORCED.delete(ctx.session);
  ctx.restart();
  return { Version: pkg.version };
}

// ---------------------------------------------------------------------------
// The factory test's photo: a PNG drawn here, different at every call.

/** Digits 0 to 9, 3 x 5 pixels, row by row. */
const DIGITS = ['111101101101111', '010110010010111', '111001111100111', '111001111001111', '101101111001001', '111100111001111', '111100111101111', '111001001001001', '111101111101111', '111101111001111'];

export const PHOTO_SIZE = { width: 160, height: 120 } as const;
/** Photos taken per simulator (by its store). */
const SHOTS = new WeakMap<object, number>();

/** The camera's picture: a graded background, a head and shoulders that move along with each shot, and the shot's number. */
function takePhoto(n: number): Buffer {
  const { width: w, height: h } = PHOTO_SIZE;
  const px = new Uint8Array(w * h * 3);
  const set = (x: number, y: number, r: number, g: number, b: number) => {
    if (x < 0 || y < 0 || x >= w || y >= h) return;
    px.set([r, g, b], (y * w + x) * 3);
  };
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) set(x, y, 40 + (x * 60) / w, 70 + (y * 100) / h, 150 - (y * 50) / h);
  // The person stands somewhere else in every shot.
  const cx = 30 + ((n * 37) % (w - 60));
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const head = (x - cx) ** 2 / 15 ** 2 + (y - 48) ** 2 / 19 ** 2 <= 1;
      const body = y >= 72 && (x - cx) ** 2 / 36 ** 2 + (y - 120) ** 2 / 46 ** 2 <= 1;
      if (head) set(x, y, 224, 178, 140);
      else if (body) set(x, y, 60 + ((n * 50) % 160), 60, 90);
    }
  }
  // The shot's number, top left, 3 pixels per font pixel.
  const text = String(n);
  for (let i = 0; i < text.length; i++) {
    const glyph = DIGITS[Number(text[i])];
    for (let gy = 0; gy < 5; gy++)
      for (let gx = 0; gx < 3; gx++)
        if (glyph[gy * 3 + gx] === '1') for (let d = 0; d < 9; d++) set(4 + i * 12 + gx * 3 + (d % 3), 4 + gy * 3 + Math.floor(d / 3), 255, 255, 255);
  }
  return encodePng(w, h, px);
}

// ---------------------------------------------------------------------------
// Service commands (ExecuteCommand): each code is a function here; nothing is
// ever run by the system.

const two = (n: number) => String(n).padStart(2, '0');

function uptime(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 86400)} d ${two(Math.floor(s / 3600) % 24)}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}`;
}

const COMMAND_RUNS = new Map<number, (ctx: Context) => string>([
  [
    100,
    (ctx) => {
      const p = ctx.model;
      const s = ctx.store.get();
      return [
        `Model: ${p.modelCode}`,
        `Firmware: ${running(ctx)}`,
        `Serial: ${p.Serial}`,
        `Uptime: ${uptime(ctx.now() - ctx.bootedAt)}`,
        `Users: ${userCounts(s.users).UserCount}`,
        `Records: ${recordCount(ctx)}`,
      ].join('\n');
    },
  ],
  [
    101,
    (ctx) => {
      const eth = settings(ctx, networkSeeds, 'EthernetParam');
      const net = settings(ctx, networkSeeds, 'InternetParam');
      const wifi = settings(ctx, networkSeeds, 'Wirless');
      const lines = [
        `Ethernet: ${eth.IpMode === 1 ? 'DHCP' : 'static'}`,
        `IP address: ${eth.Ip}`,
        `Subnet mask: ${eth.Mask}`,
        `Gateway: ${eth.Gateway}`,
        `DNS: ${net.Dns}${net.AutoMode === 1 ? ' (automatic)' : ''}`,
        `Ethernet MAC: ${ctx.model.EthMAC}`,
      ];
      if (ctx.model.WifiMAC) lines.push(`Wi-Fi: ${wifi.WifiMode === 0 ? `station, network ${JSON.stringify(String(wifi.Ssid ?? ''))}` : 'access point'}`, `Wi-Fi MAC: ${ctx.model.WifiMAC}`);
      else lines.push('Wi-Fi: none');
      return lines.join('\n');
    },
  ],
  [200, () => 'Beep'],
  // The door opens as GetDoorAction's open now does (door.ts), where the relay drives a lock.
  [300, (ctx) => (ctx.door?.opens ? `Door opened: relay on for ${ctx.door.openNow()} s` : 'Door not opened: no relay drives a door lock')],
  [
    400,
    (ctx) => {
      // The name only: the simulated terminal has no log storage, and stores nothing the contract does not name.
      const t = new Date(ctx.now()).toISOString();
      return `/var/log/terminal-${t.slice(0, 10).replace(/-/g, '')}-${t.slice(11, 19).replace(/:/g, '')}.log`;
    },
  ],
]);
// Every documented code has its function, and no other code has one.
for (const code of Object.keys(COMMANDS)) if (!COMMAND_RUNS.has(Number(code))) throw new Error(`ExecuteCommand: code ${code} has no implementation`);
if (COMMAND_RUNS.size !== Object.keys(COMMANDS).length) throw new Error('ExecuteCommand: an implemented code is not in COMMANDS');

// ---------------------------------------------------------------------------
// The calls

export const handlers: Record<string, CallImpl> = {
  RestartMachine: {
    handle(ctx) {
      ctx.restart();
      return {};
    },
  },

  InitMachine: {
    async handle(ctx) {
      await initialize(ctx);
      ctx.restart();
      return {};
    },
  },

  UpdateMachine: {
    handle: (ctx, p) => upgrade(ctx, p.File as Upload),
  },

  InitAdminCard: {
    async handle(ctx) {
      const admins = (users: readonly User[]) => users.filter((u) => u.Admin >= 1 && (u.CardNo || u.CardType));
      let cleared = 0;
      if (admins(ctx.store.get().users).length) {
        await ctx.store.update((s) => {
          cleared = 0;
          for (const u of admins(s.users)) {
            if (u.CardNo) cleared++;
            u.CardNo = '';
            u.CardType = 0;
          }
        });
      }
      return { Cleared: cleared };
    },
  },

  SetWebUpgradeMode: {
    handle(ctx, p) {
      if (p.Password !== ctx.model.upgradePassword) refuse(40302, { field: 'Password' });
      // The server sets the session of every call that needs one.
      FORCED.set(ctx.session!, ctx.now() + FORCED_UPGRADE_MS);
      return {};
    },
  },

  test_takephoto: {
    handle(ctx): FileReply {
      const n = (SHOTS.get(ctx.store) ?? 0) + 1;
      SHOTS.set(ctx.store, n);
      return { file: { name: `photo-${n}.png`, type: 'image/png', data: takePhoto(n) } };
    },
  },

  ExecuteCommand: {
    handle(ctx, p) {
      const run = COMMAND_RUNS.get(p.Code as number);
      if (!run) return refuse(UNKNOWN_COMMAND, { field: 'Code' });
      return { Output: run(ctx) };
    },
  },
};
