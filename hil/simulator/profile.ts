// A device profile: what model the simulated terminal pretends to be.
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface DeviceProfile {
  model: string;
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
  /**
   * How a face or finger enrolment on the terminal goes: after `ms` it ends
   * with `outcome`; a `timeout` keeps waiting until `timeoutMs` (no one came).
   */
  enroll: Enroll;
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
  return profile;
}
