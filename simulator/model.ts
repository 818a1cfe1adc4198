// A device model: what terminal the simulated one pretends to be (simulator/models/*.json).
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publicKeyFrom } from '../contract/firmware.ts';

export interface DeviceModel {
  /** What the terminal is, in words (the CLI's banner). */
  model: string;
  /**
   * The model code: SetInfoParam's Model, and the model a firmware package
   * must name (printable ASCII, at most 32 characters: the package header's field).
   */
  modelCode: string;
  /** The firmware the terminal ships with (SetInfoParam's Build_Version until an upgrade). */
  Build_Version: string;
  KernelVersion: string;
  FSVersion: string;
  Serial: string;
  EthMAC: string;
  WifiMAC: string;
  MaxUser: number;
  MaxFACE: number;
  MaxFP: number;
  MaxIRIS: number;
  /** Users with a card the terminal holds (10004 past it). */
  MaxCard: number;
  MaxRecord: number;
  funOption: { FACE: 0 | 1; FP: 0 | 1; IRIS: 0 | 1 };
  /** The device function list (menu keys), see docs/API.md. */
  funs: string[];
  /** Languages the device offers. */
  lans: string[];
  /** Initial value of the language-switch setting. */
  LanguageSettingItem: 0 | 1;
  /**
   * Tests only: a session unused this long ends with code 40104, instead of
   * the administrator's setting (RestParam.IdleMinutes, 10 at the factory).
   */
  sessionIdleMs?: number;
  /** Tests only: entries the operation log keeps, instead of OPLOG_SIZE (contract/oplog.ts). */
  oplogSize?: number;
  /** The factory credential: signs in only to choose the password while the terminal is in its factory state (activation.ts). */
  admin: { username: string; password: string };
  /** Users a fresh store is seeded with (at most MaxUser). */
  seedUsers: number;
  /** Attendance records a fresh store is seeded with (at most MaxRecord; none without seed users): see areas/records.ts. */
  seedRecords: number;
  /** Temperature records a fresh store is seeded with (searchThermometryRecord, which a model without 'thermometry' in funs refuses). */
  seedTemperatures: number;
  /**
   * How a face or finger enrolment on the terminal goes: after `ms` it ends
   * with `outcome`; a `timeout` keeps waiting until `timeoutMs` (no one came).
   */
  enroll: Enroll;
  /** The door's timings (door.ts): the sensor following the relay, the held-open alarm. */
  door: DoorTimes;
  /** How long a restart (RestartMachine, InitMachine, a firmware upgrade) keeps the terminal from answering, ms. */
  restartMs: number;
  /** The forced-upgrade password SetWebUpgradeMode takes (set at the factory; not the administrator's). */
  upgradePassword: string;
  /**
   * The vendor's public keys a firmware package must be signed with, per
   * brand (base64 of the 32-byte raw Ed25519 key; `npm run firmware --
   * --new-key` prints one): the terminal serves one brand and holds that
   * brand's list, or `default`'s for a brand not listed. Several keys make
   * rotation possible (docs/API.md, "Firmware package"). On a real
   * terminal the list is part of the firmware image.
   */
  firmwareKeys: Record<string, string[]>;
  /** What the keys are, for whoever reads the model's file (default.json: test keys). */
  firmwareKeysNote?: string;
}

/** The door's timings (door.ts; a test shortens them). */
export interface DoorTimes {
  /** How long after the lock releases the door swings open, and after the pass it swings shut. */
  sensorMs: number;
  /** How long a door may stand open after the relay released before the held-open alarm. */
  heldOpenMs: number;
}

export interface Enroll {
  ms: number;
  outcome: EnrollOutcome;
  timeoutMs: number;
}

export const ENROLL_OUTCOMES = ['success', 'fail', 'timeout'] as const;
export type EnrollOutcome = (typeof ENROLL_OUTCOMES)[number];

const HERE = dirname(fileURLToPath(import.meta.url));

export type ModelOverrides = Partial<Omit<DeviceModel, 'enroll' | 'door'>> & { enroll?: Partial<Enroll>; door?: Partial<DoorTimes> };

/**
 * Load a device model by name (simulator/models/<name>.json) or path, with
 * overrides. Unnamed values come from default.json (`enroll` and `door` value by value).
 */
export function loadModel(nameOrPath = 'default', overrides: ModelOverrides = {}): DeviceModel {
  const byName = join(HERE, 'models', `${nameOrPath}.json`);
  const file = existsSync(byName) ? byName : nameOrPath;
  if (!existsSync(file)) throw new Error(`no device model "${nameOrPath}" (have a name from simulator/models/ or a path)`);
  const base = JSON.parse(readFileSync(join(HERE, 'models', 'default.json'), 'utf8')) as DeviceModel;
  const own = JSON.parse(readFileSync(file, 'utf8')) as ModelOverrides;
  const model: DeviceModel = { ...base, ...own, ...overrides, enroll: { ...base.enroll, ...own.enroll, ...overrides.enroll }, door: { ...base.door, ...own.door, ...overrides.door } };
  if (!ENROLL_OUTCOMES.includes(model.enroll.outcome)) throw new Error(`model enroll.outcome must be one of ${ENROLL_OUTCOMES.join(', ')}`);
  // The firmware package's model field holds 32 bytes of printable ASCII.
  if (!/^[\x21-\x7e]([\x20-\x7e]{0,30}[\x21-\x7e])?$/.test(model.modelCode)) throw new Error('model modelCode must be printable ASCII, 1 to 32 characters');
  if (!Number.isInteger(model.restartMs) || model.restartMs < 0) throw new Error('model restartMs must be a whole number of ms, 0 or more');
  const keys = model.firmwareKeys;
  if (typeof keys !== 'object' || keys === null || !Array.isArray(keys.default)) throw new Error('model firmwareKeys must hold a "default" list');
  for (const [brand, list] of Object.entries(keys)) {
    if (!Array.isArray(list)) throw new Error(`model firmwareKeys.${brand} must be a list`);
    // publicKeyFrom() throws on a key that is not base64 of 32 bytes.
    for (const k of list) publicKeyFrom(k);
  }
  return model;
}

/** The firmware keys a terminal of `brand` holds: the brand's own list, else the model's default one. */
export function firmwareKeysFor(model: DeviceModel, brand: string | undefined): readonly string[] {
  const keys = model.firmwareKeys;
  return brand !== undefined && Object.prototype.hasOwnProperty.call(keys, brand) ? keys[brand] : keys.default;
}
