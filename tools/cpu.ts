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

const USAGE = 'usage: npm run cpu -- [--every MS] [--top N] [--steps N] [--] COMMAND [ARG ...]\nRuns COMMAND and prints where its CPU time went, by kind of process, by the N processes (12) that took the most, and by the N steps (0) that did, each with what it started.';
const USER_HZ = 100;

export interface Sampled {
  pid: number;
  /** The parent's pid at the first reading. */
  ppid?: number;
  command: string;
  /** CPU seconds (user and system) at the last reading. */
  cpu: number;
  /** Of those, the seconds spent in the kernel for it (system calls, page faults). */
  system?: number;
  /** Page faults (minor and major) at the last reading: a new process pays one for each page it touches first. */
  faults?: number;
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
    const found: Array<{ pid: number; ppid: number; key: string; cpu: number; system: number; faults: number; name: string }> = [];
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        // ppid (field 4), minflt (10), majflt (12), utime (14), stime (15), starttime (22).
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        const f = statFields(stat);
        found.push({
          pid: Number(name),
          ppid: Number(f[1]),
          key: `${name}:${f[19]}`,
          cpu: (Number(f[11]) + Number(f[12])) / USER_HZ,
          system: Number(f[12]) / USER_HZ,
          faults: Number(f[7]) + Number(f[9]),
          name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
        });
      } catch {
        // A process that ended while it was read.
      }
    }
    growTree(this.inTree, new Map(found.map((p) => [p.pid, p.ppid])));
    for (const p of found) {
      if (!this.inTree.has(p.pid)) continue;
      const known = this.seen.get(p.key);
      if (!known) this.seen.set(p.key, { pid: p.pid, ppid: p.ppid, command: commandOf(p.pid), cpu: p.cpu, system: p.system, faults: p.faults, name: p.name });
      else {
        Object.assign(known, { cpu: p.cpu, system: p.system, faults: p.faults });
        // A process whose name changed has exec'd another program (a launcher script that becomes Chromium): its command is read
        // again. So is one whose command line was empty or unreadable when first read: read in the middle of its exec (node
        // starting node keeps its name), /proc gives none.
        if (known.name !== p.name || !known.command || known.command === '?') Object.assign(known, { name: p.name, command: commandOf(p.pid) });
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

const SHELLS = new Set(['sh', 'bash', 'dash']);
const isShell = (command: string) => SHELLS.has((command.split(' ')[0] ?? '').split('/').pop() ?? '');

/**
 * Each process's step: of the process and its ancestors, the outermost that is no shell and was started by
 * one (a test suite's process, with the browsers, workers and virtual machines it started, even through a
 * shell of their own), else the process itself. `npm test`'s steps are the commands tests/run.sh starts, so
 * this says what each step costs with everything under it. A parent never read (it ended between two
 * readings) ends the walk.
 */
export function stepsOf(processes: Sampled[]): Map<Sampled, Sampled> {
  const byPid = new Map(processes.map((p) => [p.pid, p]));
  const parent = (p: Sampled) => (p.ppid === undefined ? undefined : byPid.get(p.ppid));
  const step = new Map<Sampled, Sampled>();
  for (const p of processes) {
    let top = p;
    const walked = new Set<number>();
    for (let at: Sampled | undefined = p; at && !walked.has(at.pid); at = parent(at)) {
      walked.add(at.pid);
      const up = parent(at);
      if (up && isShell(up.command) && !isShell(at.command)) top = at;
    }
    step.set(p, top);
  }
  return step;
}

/**
 * The report: CPU by kind (seconds, processes; of the seconds, those in the kernel, and the page faults),
 * then the `top` processes that took the most.
 */
export function report(processes: Sampled[], wallMs: number, top = 12, steps = 0): string {
  const total = processes.reduce((s, p) => s + p.cpu, 0);
  const system = processes.reduce((s, p) => s + (p.system ?? 0), 0);
  const kinds = new Map<string, { cpu: number; system: number; faults: number; n: number }>();
  for (const p of processes) {
    const kind = kindOf(p.command);
    const k = kinds.get(kind) ?? { cpu: 0, system: 0, faults: 0, n: 0 };
    k.cpu += p.cpu;
    k.system += p.system ?? 0;
    k.faults += p.faults ?? 0;
    k.n += 1;
    kinds.set(kind, k);
  }
  const s = (x: number) => x.toFixed(1).padStart(8);
  const lines = [
    `wall ${(wallMs / 1000).toFixed(1)} s; CPU ${total.toFixed(1)} s in ${processes.length} processes (${(total / (wallMs / 1000)).toFixed(2)} cores on average), ${system.toFixed(1)} s of it in the kernel`,
    '',
    'CPU s   processes  system s  faults (k)  kind',
    ...[...kinds]
      .sort((a, b) => b[1].cpu - a[1].cpu)
      .map(([k, v]) => `${s(v.cpu)} ${String(v.n).padStart(6)}  ${s(v.system)} ${(v.faults / 1000).toFixed(0).padStart(11)}  ${k}`),
    '',
    'CPU s   process',
    ...[...processes].sort((a, b) => b.cpu - a.cpu).slice(0, top).map((p) => `${s(p.cpu)}  ${p.pid} ${p.command.slice(0, 110)}`),
  ];
  if (steps > 0) {
    const bySteps = new Map<Sampled, { cpu: number; n: number }>();
    for (const [p, at] of stepsOf(processes)) {
      const t = bySteps.get(at) ?? { cpu: 0, n: 0 };
      t.cpu += p.cpu;
      t.n += 1;
      bySteps.set(at, t);
    }
    lines.push(
      '',
      'CPU s   processes  step (with everything it started)',
      ...[...bySteps].sort((a, b) => b[1].cpu - a[1].cpu).slice(0, steps).map(([p, t]) => `${s(t.cpu)} ${String(t.n).padStart(6)}     ${p.pid} ${p.command.slice(0, 100)}`),
    );
  }
  return lines.join('\n');
}

/** The command line: the options first, then the command (after `--`, or at the first word that is neither an option nor an option's value: `npm run cpu -- npm test`). Throws with one line when it does not fit. */
export function readCommandLine(argv: string[]): { every: number; top: number; steps: number; command: string[] } {
  const dashes = argv.indexOf('--');
  const first = argv.findIndex((a, i) => !a.startsWith('-') && !['--every', '--top', '--steps'].includes(argv[i - 1]));
  const end = dashes >= 0 && (first < 0 || dashes < first) ? dashes : first < 0 ? argv.length : first;
  const { values } = readArgs(argv.slice(0, end), { every: { type: 'string' }, top: { type: 'string' }, steps: { type: 'string' } }, USAGE);
  const command = argv.slice(end + (argv[end] === '--' ? 1 : 0));
  const every = Number(values.every ?? 500);
  const top = Number(values.top ?? 12);
  const steps = Number(values.steps ?? 0);
  const count = (n: number) => Number.isInteger(n) && n >= 0;
  const wrong = !command.length ? 'no command' : !(every >= 10) ? '--every takes milliseconds, 10 or more' : !count(top) ? '--top takes a count' : !count(steps) ? '--steps takes a count' : '';
  if (wrong) throw new Error(`${wrong} (${USAGE.split('\n')[0]})`);
  return { every, top, steps, command };
}

async function main(): Promise<number> {
  const { every, top, steps, command } = argsOrExit('cpu', 2, () => readCommandLine(process.argv.slice(2)));
  const started = performance.now();
  const child = spawn(command[0], command.slice(1), { stdio: 'inherit' });
  const sampler = new Sampler(child.pid!);
  const timer = setInterval(() => sampler.read(), every);
  sampler.read();
  const status = await new Promise<number>((res) => child.on('exit', (code, signal) => res(code ?? (signal ? 128 : 1))));
  clearInterval(timer);
  console.error(`\n== cpu: ${command.join(' ')}\n${report([...sampler.seen.values()], performance.now() - started, top, steps)}`);
  return status;
}

// Run as a program, not when a test imports it.
if (process.argv[1]?.endsWith('tools/cpu.ts')) process.exitCode = await main();
