// A device profile: what model the simulated terminal pretends to be.
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface DeviceProfile {
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
  /** A session unused this long ends with code 40104. */
  sessionIdleMs: number;
  /** Factory administrator. */
  admin: { username: string; password: string };
  /** Users a fresh store is seeded with (at most MaxUser). */
  seedUsers: number;
  /** Attendance records a fresh store is seeded with (at most MaxRecord; none without seed users): see areas/records.ts. */
  seedRecords: number;
  /** Temperature records a fresh store is seeded with (searchThermometryRecord, which a profile without 'thermometry' in funs refuses). */
  seedTemperatures: number;
  /**
   * How a face or finger enrolment on the terminal goes: after `ms` it ends
   * with `outcome`; a `timeout` keeps waiting until `timeoutMs` (no one came).
   */
  enroll: Enroll;
  /** How long a restart (RestartMachine, InitMachine, a firmware upgrade) keeps the terminal from answering, ms. */
  restartMs: number;
  /** The forced-upgrade password SetWebUpgradeMode takes (set at the factory; not the administrator's). */
  upgradePassword: string;
}

export interface Enroll {
  ms: number;
  outcome: EnrollOutcome;
  timeoutMs: number;
}

export const ENROLL_OUTCOMES = ['success', 'fail', 'timeout'] as const;
export type EnrollOutcome = (typeof ENROLL_OUTCOMES)[number];

const HERE = dirname(fileURLToPath(import.meta.url));

export type ProfileOverrides = Partial<Omit<DeviceProfile, 'enroll'>> & { enroll?: Partial<Enroll> };

/**
 * Load a profile by name (hil/simulator/profiles/<name>.json) or path, with
 * overrides. Unnamed values come from default.json (`enroll` value by value).
 */
export function loadProfile(nameOrPath = 'default', overrides: ProfileOverrides = {}): DeviceProfile {
  const byName = join(HERE, 'profiles', `${nameOrPath}.json`);
  const file = existsSync(byName) ? byName : nameOrPath;
  if (!existsSync(file)) throw new Error(`no device profile "${nameOrPath}" (have a name from hil/simulator/profiles/ or a path)`);
  const base = JSON.parse(readFileSync(join(HERE, 'profiles', 'default.json'), 'utf8')) as DeviceProfile;
  const own = JSON.parse(readFileSync(file, 'utf8')) as ProfileOverrides;
  const profile: DeviceProfile = { ...base, ...own, ...overrides, enroll: { ...base.enroll, ...own.enroll, ...overrides.enroll } };
  if (!ENROLL_OUTCOMES.includes(profile.enroll.outcome)) throw new Error(`profile enroll.outcome must be one of ${ENROLL_OUTCOMES.join(', ')}`);
  // The firmware package's model field holds 32 bytes of printable ASCII.
  if (!/^[\x21-\x7e]([\x20-\x7e]{0,30}[\x21-\x7e])?$/.test(profile.modelCode)) throw new Error('profile modelCode must be printable ASCII, 1 to 32 characters');
  if (!Number.isInteger(profile.restartMs) || profile.restartMs < 0) throw new Error('profile restartMs must be a whole number of ms, 0 or more');
  return profile;
}
