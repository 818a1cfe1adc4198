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
}

const HERE = dirname(fileURLToPath(import.meta.url));

/** Load a profile by name (hil/simulator/profiles/<name>.json) or path, with overrides. */
export function loadProfile(nameOrPath = 'default', overrides: Partial<DeviceProfile> = {}): DeviceProfile {
  const byName = join(HERE, 'profiles', `${nameOrPath}.json`);
  const file = existsSync(byName) ? byName : nameOrPath;
  if (!existsSync(file)) throw new Error(`no device profile "${nameOrPath}" (have a name from hil/simulator/profiles/ or a path)`);
  const base = JSON.parse(readFileSync(join(HERE, 'profiles', 'default.json'), 'utf8')) as DeviceProfile;
  return { ...base, ...JSON.parse(readFileSync(file, 'utf8')), ...overrides };
}
