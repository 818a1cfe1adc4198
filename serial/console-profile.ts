// Terminal profiles (serial/console-profiles/<name>.json): how to sign in on a model's
// serial console and which commands receive, check, install and restart.
// docs/HIL.md explains how to write one for a new model.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isProtocol, type Protocol } from './transfer.ts';

export interface ConsoleProfile {
  description: string;
  prompts: { login: string; password: string; shell: string; loginFailed: string };
  user: string;
  password: string;
  /** Where the image lands (tmp), the path the web server serves (www, a symlink) and the folder of releases. */
  paths: { tmp: string; www: string; releases: string };
  /** zmodem (rz), ymodem (rb), or auto: ZMODEM when hasZmodem succeeds on the terminal. */
  protocol: 'auto' | Protocol;
  /** Release folders kept on the terminal, the live one and the one before it included (at least 2). */
  keepReleases: number;
  /**
   * Shell commands. Placeholders: the paths ({tmp}, {www}, {releases}),
   * {image} (the image file name), {folder} (the new release folder),
   * {link} and {target} (setLink, readLink), {paths} (remove), {file} (readFile).
   */
  commands: {
    hasZmodem: string;
    receiveZmodem: string;
    receive: string;
    sha256: string;
    unpack: string;
    readLink: string;
    setLink: string;
    list: string;
    remove: string;
    readFile: string;
    restartWeb: string;
    cleanup?: string;
  };
  timeouts: { promptMs: number; commandMs: number; transferStartMs: number; httpMs: number };
}

const HERE = dirname(fileURLToPath(import.meta.url));
const REQUIRED = ['hasZmodem', 'receiveZmodem', 'receive', 'sha256', 'unpack', 'readLink', 'setLink', 'list', 'remove', 'readFile', 'restartWeb'] as const;

/** By name (serial/console-profiles/<name>.json) or path; HIL_USER / HIL_PASSWORD override the credentials. */
export function loadConsoleProfile(nameOrPath = 'default'): ConsoleProfile {
  const byName = join(HERE, 'console-profiles', `${nameOrPath}.json`);
  const file = existsSync(byName) ? byName : nameOrPath;
  if (!existsSync(file)) throw new Error(`no terminal profile "${nameOrPath}" (a name from serial/console-profiles/ or a path)`);
  const base = JSON.parse(readFileSync(join(HERE, 'console-profiles', 'default.json'), 'utf8')) as ConsoleProfile;
  const own = JSON.parse(readFileSync(file, 'utf8')) as Partial<ConsoleProfile>;
  const p: ConsoleProfile = {
    ...base,
    ...own,
    prompts: { ...base.prompts, ...own.prompts },
    paths: { ...base.paths, ...own.paths },
    commands: { ...base.commands, ...own.commands },
    timeouts: { ...base.timeouts, ...own.timeouts },
  };
  if (process.env.HIL_USER) p.user = process.env.HIL_USER;
  if (process.env.HIL_PASSWORD) p.password = process.env.HIL_PASSWORD;
  for (const k of REQUIRED) if (!p.commands[k]) throw new Error(`terminal profile ${file}: commands.${k} is missing`);
  if ('install' in (own.commands ?? {})) throw new Error(`terminal profile ${file}: commands.install is gone; "unpack" unpacks into {releases}/{folder} and the harness swaps and prunes (docs/HIL.md, "Atomic install")`);
  if (p.protocol !== 'auto' && !isProtocol(p.protocol)) throw new Error(`terminal profile ${file}: protocol is auto, zmodem or ymodem`);
  if (!Number.isInteger(p.keepReleases) || p.keepReleases < 2) throw new Error(`terminal profile ${file}: keepReleases must be 2 or more (the live release and the one to roll back to)`);
  for (const [k, v] of Object.entries(p.prompts)) {
    try {
      new RegExp(v);
    } catch {
      throw new Error(`terminal profile ${file}: prompts.${k} is not a regular expression`);
    }
  }
  return p;
}

/** The template with {name} replaced; the profile's paths are always there. A name with no value is an error. */
export function fill(template: string, values: Record<string, string>, profile?: ConsoleProfile): string {
  const all = new Map(Object.entries({ ...profile?.paths, ...values }));
  return template.replace(/\{(\w+)\}/g, (m, k: string) => {
    const v = all.get(k);
    if (v === undefined) throw new Error(`terminal profile: no value for ${m} in "${template}"`);
    return v;
  });
}
