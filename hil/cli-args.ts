// Arguments, inventory files and shards for `npm run hil` (see hil/cli.ts).
import { readFileSync } from 'node:fs';
import { defaultBrand } from '../build/project.ts';
import type { TerminalTarget } from './result.ts';

export interface Args {
  serial?: string;
  baud: number;
  url?: string;
  brand: string;
  profile: string;
  name?: string;
  simulate: boolean;
  simulateTcp: boolean;
  /** A virtual board of its own (hil/board): QEMU with Debian's kernel, flashed over its ttyS0. */
  board: boolean;
  /** With --board: its /data made again from the build first (the factory state). */
  fresh: boolean;
  deviceProfile?: string;
  inventory?: string;
  shard?: [number, number];
  report: string;
  rebuild: boolean;
  suites: boolean;
  grep?: string;
  rollback: boolean;
  /** The inventory's terminals share the browser suites: terminal k of N runs Playwright's shard k/N. */
  splitSuites: boolean;
  protocol?: 'zmodem' | 'ymodem';
}

export const USAGE = `usage: npm run hil -- (--serial PATH|tcp://HOST:PORT --url http://TERMINAL | --simulate | --board [--fresh] | --inventory FILE)
       [--baud 115200] [--brand ${defaultBrand()}] [--profile default] [--name NAME] [--shard I/N]
       [--report hil-report] [--rebuild] [--no-suites] [--grep PATTERN] [--device-profile default] [--simulate-tcp]
       [--protocol zmodem|ymodem] [--rollback] [--split-suites]`;

export function parseArgs(argv: string[]): Args {
  const a: Args = { baud: 115200, brand: defaultBrand(), profile: 'default', simulate: false, simulateTcp: false, board: false, fresh: false, report: 'hil-report', rebuild: false, suites: true, rollback: false, splitSuites: false };
  let profileGiven = false;
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value\n${USAGE}`);
      return v;
    };
    switch (flag) {
      case '--serial': a.serial = value(); break;
      case '--baud': a.baud = Number(value()); break;
      case '--url': a.url = value(); break;
      case '--brand': a.brand = value(); break;
      case '--profile': a.profile = value(); profileGiven = true; break;
      case '--name': a.name = value(); break;
      case '--simulate': a.simulate = true; break;
      case '--simulate-tcp': a.simulateTcp = true; break;
      case '--board': a.board = true; break;
      case '--fresh': a.fresh = true; break;
      case '--device-profile': a.deviceProfile = value(); break;
      case '--inventory': a.inventory = value(); break;
      case '--report': a.report = value(); break;
      case '--rebuild': a.rebuild = true; break;
      case '--no-suites': a.suites = false; break;
      case '--grep': a.grep = value(); break;
      case '--rollback': a.rollback = true; break;
      case '--split-suites': a.splitSuites = true; break;
      case '--protocol': {
        const p = value();
        if (p !== 'zmodem' && p !== 'ymodem') throw new Error('--protocol takes zmodem or ymodem (without it: ZMODEM when the terminal has rz)');
        a.protocol = p;
        break;
      }
      case '--shard': {
        const m = /^(\d+)\/(\d+)$/.exec(value());
        if (!m || Number(m[1]) < 1 || Number(m[1]) > Number(m[2])) throw new Error(`--shard takes I/N with 1 <= I <= N, e.g. 2/3`);
        a.shard = [Number(m[1]), Number(m[2])];
        break;
      }
      case '--help': throw new Error(USAGE);
      default: throw new Error(`unknown option ${argv[i]}\n${USAGE}`);
    }
  }
  if (!Number.isInteger(a.baud) || a.baud <= 0) throw new Error('--baud takes a positive whole number');
  // --simulate-tcp alone means --simulate; with an inventory it applies to its simulated entries.
  if (a.simulateTcp && !a.inventory && !a.serial) a.simulate = true;
  const modes = [!!a.inventory, a.simulate, !!a.serial, a.board].filter(Boolean).length;
  if (modes !== 1) throw new Error(`give exactly one of --serial, --simulate, --board, --inventory\n${USAGE}`);
  if (a.fresh && !a.board && !a.inventory) throw new Error(`--fresh goes with --board (the board's /data in the factory state)\n${USAGE}`);
  // The board's shell and layout are those of hil/profiles/board.json.
  if (a.board && !profileGiven) a.profile = 'board';
  if (a.serial && !a.url) throw new Error(`--serial needs --url (the terminal's web address)\n${USAGE}`);
  return a;
}

export interface InventoryEntry extends Partial<TerminalTarget> {
  simulate?: boolean;
  /** A virtual board (hil/board) started for this entry, with the board profile unless it names one. */
  board?: boolean;
  deviceProfile?: string;
}

export function readInventory(file: string): InventoryEntry[] {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as InventoryEntry[] | { terminals: InventoryEntry[] };
  const list = Array.isArray(raw) ? raw : raw.terminals;
  if (!Array.isArray(list) || !list.length) throw new Error(`${file}: expected a list of terminals (or { "terminals": [...] })`);
  const names = new Set<string>();
  list.forEach((t, i) => {
    if (!t.name) throw new Error(`${file}: terminal ${i + 1} has no name`);
    if (names.has(t.name)) throw new Error(`${file}: two terminals are named ${t.name}`);
    names.add(t.name);
    if (t.simulate && t.board) throw new Error(`${file}: ${t.name} is either "simulate" or "board", not both`);
    if (!t.simulate && !t.board && (!t.serial || !t.url)) throw new Error(`${file}: ${t.name} needs "serial" and "url" (or "simulate": true, or "board": true)`);
  });
  return list;
}

/** Entries for shard I of N: every Nth, starting at I (1-based), so shards stay balanced. */
export function shardOf<T>(list: T[], shard?: [number, number]): T[] {
  if (!shard) return list;
  return list.filter((_, i) => i % shard[1] === shard[0] - 1);
}

