// Terminal profiles (hil/profiles/<name>.json): how to sign in on a model's
// serial console and which commands receive, check, install and restart.
// docs/HIL.md explains how to write one for a new model.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface TerminalProfile {
  description: string;
  prompts: { login: string; password: string; shell: string; loginFailed: string };
  user: string;
  password: string;
  /** Shell commands; {image} is the image file name, {release} the release folder name. */
  commands: { receive: string; sha256: string; install: string; restartWeb: string; cleanup?: string };
  timeouts: { promptMs: number; commandMs: number; transferStartMs: number; httpMs: number };
}

const HERE = dirname(fileURLToPath(import.meta.url));
const REQUIRED = ['receive', 'sha256', 'install', 'restartWeb'] as const;

/** By name (hil/profiles/<name>.json) or path; HIL_USER / HIL_PASSWORD override the credentials. */
export function loadTerminalProfile(nameOrPath = 'default'): TerminalProfile {
  const byName = join(HERE, 'profiles', `${nameOrPath}.json`);
  const file = existsSync(byName) ? byName : nameOrPath;
  if (!existsSync(file)) throw new Error(`no terminal profile "${nameOrPath}" (a name from hil/profiles/ or a path)`);
  const base = JSON.parse(readFileSync(join(HERE, 'profiles', 'default.json'), 'utf8')) as TerminalProfile;
  const own = JSON.parse(readFileSync(file, 'utf8')) as Partial<TerminalProfile>;
  const p: TerminalProfile = {
    ...base,
    ...own,
    prompts: { ...base.prompts, ...own.prompts },
    commands: { ...base.commands, ...own.commands },
    timeouts: { ...base.timeouts, ...own.timeouts },
  };
  if (process.env.HIL_USER) p.user = process.env.HIL_USER;
  if (process.env.HIL_PASSWORD) p.password = process.env.HIL_PASSWORD;
  for (const k of REQUIRED) if (!p.commands[k]) throw new Error(`terminal profile ${file}: commands.${k} is missing`);
  for (const [k, v] of Object.entries(p.prompts)) {
    try {
      new RegExp(v);
    } catch {
      throw new Error(`terminal profile ${file}: prompts.${k} is not a regular expression`);
    }
  }
  return p;
}

export function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => values[k] ?? m);
}
