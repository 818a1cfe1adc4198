// Arguments, inventory files and shards for `npm run hil` (see hil/cli.ts).
import { readFileSync } from 'node:fs';
import { readArgs } from '../build/args.ts';
import { defaultBrand } from '../build/project.ts';
import { isProtocol, type Protocol } from '../serial/transfer.ts';
import type { TerminalTarget } from './result.ts';

export interface Args {
  serial?: string;
  baud: number;
  url?: string;
  brand: string;
  /** The serial console profile (serial/console-profiles/, or a JSON file): default, or board with --board. */
  consoleProfile: string;
  name?: string;
  simulate: boolean;
  simulateTcp: boolean;
  /** A virtual board of its own (board): QEMU with Debian's kernel, flashed over its ttyS0. */
  board: boolean;
  /** With --board: its /data made again from the build first (the factory state). */
  fresh: boolean;
  /** With --simulate or --board: the simulated terminal's device model (simulator/models/). */
  model?: string;
  inventory?: string;
  shard?: [number, number];
  report: string;
  rebuild: boolean;
  suites: boolean;
  grep?: string;
  rollback: boolean;
  /** The inventory's terminals share the browser suites: terminal k of N runs Playwright's shard k/N. */
  splitSuites: boolean;
  protocol?: Protocol;
}

export const USAGE = `usage: npm run hil -- (--serial PATH|tcp://HOST:PORT --url http://TERMINAL | --simulate | --board [--fresh] | --inventory FILE)
       [--baud 115200] [--brand ${defaultBrand()}] [--console-profile default] [--name NAME] [--shard I/N]
       [--report hil-report] [--rebuild] [--no-suites] [--grep PATTERN] [--model default] [--simulate-tcp]
       [--protocol zmodem|ymodem] [--rollback] [--split-suites]`;

const OPTIONS = {
  serial: { type: 'string' },
  baud: { type: 'string' },
  url: { type: 'string' },
  brand: { type: 'string' },
  'console-profile': { type: 'string' },
  name: { type: 'string' },
  simulate: { type: 'boolean' },
  'simulate-tcp': { type: 'boolean' },
  board: { type: 'boolean' },
  fresh: { type: 'boolean' },
  model: { type: 'string' },
  inventory: { type: 'string' },
  shard: { type: 'string' },
  report: { type: 'string' },
  rebuild: { type: 'boolean' },
  'no-suites': { type: 'boolean' },
  grep: { type: 'string' },
  rollback: { type: 'boolean' },
  'split-suites': { type: 'boolean' },
  protocol: { type: 'string' },
} as const;

export function parseArgs(argv: string[]): Args {
  const { values: v } = readArgs(argv, OPTIONS, USAGE);
  const a: Args = {
    serial: v.serial,
    baud: v.baud !== undefined ? Number(v.baud) : 115200,
    url: v.url,
    brand: v.brand ?? defaultBrand(),
    consoleProfile: v['console-profile'] ?? 'default',
    name: v.name,
    simulate: v.simulate ?? false,
    simulateTcp: v['simulate-tcp'] ?? false,
    board: v.board ?? false,
    fresh: v.fresh ?? false,
    model: v.model,
    inventory: v.inventory,
    report: v.report ?? 'hil-report',
    rebuild: v.rebuild ?? false,
    suites: !v['no-suites'],
    grep: v.grep,
    rollback: v.rollback ?? false,
    splitSuites: v['split-suites'] ?? false,
  };
  if (v.protocol !== undefined) {
    if (!isProtocol(v.protocol)) throw new Error('--protocol takes zmodem or ymodem (without it: ZMODEM when the terminal has rz)');
    a.protocol = v.protocol;
  }
  if (v.shard !== undefined) {
    const m = /^(\d+)\/(\d+)$/.exec(v.shard);
    if (!m || Number(m[1]) < 1 || Number(m[1]) > Number(m[2])) throw new Error(`--shard takes I/N with 1 <= I <= N, e.g. 2/3`);
    a.shard = [Number(m[1]), Number(m[2])];
  }
  if (!Number.isInteger(a.baud) || a.baud <= 0) throw new Error('--baud takes a positive whole number');
  // --simulate-tcp alone means --simulate; with an inventory it applies to its simulated entries.
  if (a.simulateTcp && !a.inventory && !a.serial) a.simulate = true;
  const modes = [!!a.inventory, a.simulate, !!a.serial, a.board].filter(Boolean).length;
  if (modes !== 1) throw new Error(`give exactly one of --serial, --simulate, --board, --inventory\n${USAGE}`);
  if (a.fresh && !a.board && !a.inventory) throw new Error(`--fresh goes with --board (the board's /data in the factory state)\n${USAGE}`);
  // The board's shell and layout are those of serial/console-profiles/board.json.
  if (a.board && v['console-profile'] === undefined) a.consoleProfile = 'board';
  if (a.serial && !a.url) throw new Error(`--serial needs --url (the terminal's web address)\n${USAGE}`);
  return a;
}

export interface InventoryEntry extends Partial<TerminalTarget> {
  simulate?: boolean;
  /** A virtual board (board) started for this entry, with the board profile unless it names one. */
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

