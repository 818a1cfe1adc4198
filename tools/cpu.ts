// `npm run cpu -- <command ...>`: where a command's CPU time goes, process by process. It runs the
// command, reads /proc every --every ms (500) for each process the command started, directly or
// not, and prints, when the command ends: the wall time, the CPU time of all of them, and that CPU
// time by kind (Chromium by process type, QEMU, Node, Firefox, WebKit, then by program name), and
// the processes that took the most. A process that ends between two readings loses at most one
// interval of its time. What npm test's lanes cost was found this way:
//
//   npm run cpu -- npm test
//
// Linux only (/proc); times in /proc/<pid>/stat are in USER_HZ, 100 a second on Linux.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { argsOrExit, readArgs } from '../build/args.ts';

const USAGE = 'usage: npm run cpu -- [--every MS] [--top N] [--] COMMAND [ARG ...]\nRuns COMMAND and prints where its CPU time went, by kind of process and by the N processes (12) that took the most.';
const USER_HZ = 100;

export interface Sampled {
  pid: number;
  command: string;
  /** CPU seconds (user and system) at the last reading. */
  cpu: number;
}

/** The kind a process is counted under: Chromium by its --type, QEMU, Node, the two other engines, else its program's name. */
export function kindOf(command: string): string {
  const argv0 = command.split(' ')[0] ?? '';
  const program = argv0.split('/').pop() ?? '';
  if (/chrom(e|ium)/.test(program)) return `chromium ${/--type=(\S+)/.exec(command)?.[1] ?? 'browser'}`;
  if (program.startsWith('qemu-system')) return 'qemu';
  if (program === 'node' || program === 'npm' || program === 'npx' || program === 'tsx') return 'node';
  if (/firefox/.test(program)) return 'firefox';
  if (/WebKit|MiniBrowser/.test(program)) return 'webkit';
  return program || '?';
}

/** /proc/<pid>/stat's fields after the command's name (which may hold spaces and parentheses): field n of proc(5) is [n - 3]. */
export const statFields = (stat: string): string[] => stat.slice(stat.lastIndexOf(')') + 2).split(' ');

/** Adds to `tree` every process whose parent is in it, repeating while it grows (/proc lists children before parents too). */
export function growTree(tree: Set<number>, parentOf: ReadonlyMap<number, number>): void {
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, ppid] of parentOf) if (!tree.has(pid) && tree.has(ppid)) (tree.add(pid), (grew = true));
  }
}

/** Reads /proc: every process in the tree under `root` (the ones seen before stay, as their last reading). */
export class Sampler {
  /** Each process with its name (stat's second field) at the last reading. */
  readonly seen = new Map<string, Sampled & { name: string }>();
  private readonly inTree = new Set<number>();

  constructor(root: number) {
    this.inTree.add(root);
  }

  read(): void {
    const found: Array<{ pid: number; ppid: number; key: string; cpu: number; name: string }> = [];
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        // ppid (field 4), utime (14), stime (15), starttime (22).
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        const f = statFields(stat);
        found.push({ pid: Number(name), ppid: Number(f[1]), key: `${name}:${f[19]}`, cpu: (Number(f[11]) + Number(f[12])) / USER_HZ, name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) });
      } catch {
        // A process that ended while it was read.
      }
    }
    growTree(this.inTree, new Map(found.map((p) => [p.pid, p.ppid])));
    for (const p of found) {
      if (!this.inTree.has(p.pid)) continue;
      const known = this.seen.get(p.key);
      if (!known) this.seen.set(p.key, { pid: p.pid, command: commandOf(p.pid), cpu: p.cpu, name: p.name });
      else {
        known.cpu = p.cpu;
        // A process whose name changed has exec'd another program (a launcher script that becomes Chromium): its command is read again.
        if (known.name !== p.name) Object.assign(known, { name: p.name, command: commandOf(p.pid) });
      }
    }
  }
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
  } catch {
    return '?';
  }
}

/** The report: CPU by kind (seconds, processes), then the `top` processes that took the most. */
export function report(processes: Sampled[], wallMs: number, top = 12): string {
  const total = processes.reduce((s, p) => s + p.cpu, 0);
  const kinds = new Map<string, { cpu: number; n: number }>();
  for (const p of processes) {
    const kind = kindOf(p.command);
    const k = kinds.get(kind) ?? { cpu: 0, n: 0 };
    k.cpu += p.cpu;
    k.n += 1;
    kinds.set(kind, k);
  }
  const s = (x: number) => x.toFixed(1).padStart(8);
  const lines = [
    `wall ${(wallMs / 1000).toFixed(1)} s; CPU ${total.toFixed(1)} s in ${processes.length} processes (${(total / (wallMs / 1000)).toFixed(2)} cores on average)`,
    '',
    'CPU s   processes  kind',
    ...[...kinds].sort((a, b) => b[1].cpu - a[1].cpu).map(([k, v]) => `${s(v.cpu)} ${String(v.n).padStart(6)}     ${k}`),
    '',
    'CPU s   process',
    ...[...processes].sort((a, b) => b.cpu - a.cpu).slice(0, top).map((p) => `${s(p.cpu)}  ${p.pid} ${p.command.slice(0, 110)}`),
  ];
  return lines.join('\n');
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  // The options come first; the command starts after `--`, or at the first word that is neither an
  // option nor --every's value (`npm run cpu -- npm test`).
  const dashes = argv.indexOf('--');
  const first = argv.findIndex((a, i) => !a.startsWith('-') && argv[i - 1] !== '--every' && argv[i - 1] !== '--top');
  const end = dashes >= 0 && (first < 0 || dashes < first) ? dashes : first < 0 ? argv.length : first;
  const { values } = argsOrExit('cpu', 2, () => readArgs(argv.slice(0, end), { every: { type: 'string' }, top: { type: 'string' } }, USAGE));
  const command = argv.slice(end + (argv[end] === '--' ? 1 : 0));
  const every = Number(values.every ?? 500);
  const top = Number(values.top ?? 12);
  const wrong = !command.length ? 'no command' : !(every >= 10) ? '--every takes milliseconds, 10 or more' : !(Number.isInteger(top) && top >= 0) ? '--top takes a count' : '';
  if (wrong) {
    console.error(`cpu: ${wrong} (${USAGE.split('\n')[0]})`);
    return 2;
  }
  const started = performance.now();
  const child = spawn(command[0], command.slice(1), { stdio: 'inherit' });
  const sampler = new Sampler(child.pid!);
  const timer = setInterval(() => sampler.read(), every);
  sampler.read();
  const status = await new Promise<number>((res) => child.on('exit', (code, signal) => res(code ?? (signal ? 128 : 1))));
  clearInterval(timer);
  console.error(`\n== cpu: ${command.join(' ')}\n${report([...sampler.seen.values()], performance.now() - started, top)}`);
  return status;
}

// Run as a program, not when a test imports it.
if (process.argv[1]?.endsWith('tools/cpu.ts')) process.exitCode = await main();
