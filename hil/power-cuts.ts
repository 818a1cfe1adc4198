// Power cuts on the virtual board (issue 26 §3). Boots the board on a fresh
// /data disk, then for each cut: flashes it with the harness (hil/cli.ts,
// --no-suites), and at a moment a seeded PRNG picks inside one phase of that
// flash (the transfer, the unpack, around the swap, the pruning) kills QEMU
// with SIGKILL. The phase is found on ttyS0: each step of the harness is a
// command line the board's shell echoes, so the cut follows the echo of the
// phase's first command by a random share of how long that phase took in the
// flash before; in the transfer, once the harness has sent a random share of
// the image's bytes (its progress lines), so the first cut needs no flash to
// time it when it is a transfer's. Then the board boots again on the same disk and is checked:
//   - /data/www points at the release live before the flash (old) or at the
//     one the flash made (new), and lighttpd serves every file of that
//     release's manifest.json with the right bytes;
//   - the factory release and the rollback target (/data/www.previous) have
//     every file of their manifest on disk (sha256sum over ttyS0);
//   - the harness's next run flashes and passes (it is also the flash whose
//     phases time the next cut).
// Anything else is broken, with why.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openTcpLink, type ByteLink } from '../serial/link.ts';
import type { Protocol } from '../serial/transfer.ts';
import { fill, type ConsoleProfile } from '../serial/console-profile.ts';
import type { FlashImage } from './image.ts';
import { verifyServed, waitForHttp } from './verify.ts';
import { prepareBoard, type BoardFiles } from '../board/board.ts';
import { freePort, startBoard, type Board } from '../board/qemu.ts';
import { ROOT } from '../board/packages.ts';
import { prng } from '../simulator/prng.ts';

/** The phases a cut is placed in, in the order a flash goes through them. */
export const PHASES = ['transfer', 'unpack', 'swap', 'prune'] as const;
export type Phase = (typeof PHASES)[number];
/** Where a flash is, as ttyS0 shows it: each mark is the echo of the first command of its step ('end': the harness said the pruning is done). */
export const MARKS = ['transfer', 'checksum', 'unpack', 'swap', 'restart', 'prune', 'end'] as const;
export type Mark = (typeof MARKS)[number];
export type Outcome = 'old' | 'new' | 'broken';

export interface CutOptions {
  cuts: number;
  /** The PRNG's seed (a random one by default; printed, so --seed replays the same phases, shares and protocols). */
  seed?: number;
  /** The phase of each cut, in turn (a random one for each cut by default). */
  phases?: Phase[];
  /** The protocols the flashes use, one picked for each cut (ZMODEM only by default: YMODEM transfers fail often on a busy machine, see docs/HIL.md). */
  protocols?: Protocol[];
  /** The cut comes after this share (at most) of the phase's length in the flash before (0.9 by default). */
  spread?: number;
  brand?: string;
  /** The terminal profile the harness flashes with (name or path; board by default): another one tries other install commands. */
  profile?: string;
  /** The /data image (a fresh one in a temporary folder by default). */
  disk?: string;
  accel?: 'kvm' | 'tcg';
  log?: (line: string) => void;
}

export interface Placement {
  /** The phase the board was in when the power went: the last mark seen. */
  phase: Phase | Mark | 'before';
  /** The marks of the cut flash seen before the cut, in order. */
  seen: Mark[];
  /** ms from the phase's mark to the cut. */
  afterMs: number;
}

export interface Cut {
  n: number;
  phase: Phase;
  protocol: Protocol;
  /** The share of the phase's length (in the flash before) the cut waited; in the transfer, the share of the image's bytes sent. */
  share: number;
  placed: Placement;
  outcome: Outcome;
  /** Which release /data/www pointed at after the cut, broken or not. */
  on: 'old' | 'new' | 'neither';
  /** The release /data/www pointed at after the cut. */
  live: string;
  /** The live release before the cut flash, and the folder the cut flash made (if it got that far). */
  before: string;
  made?: string;
  /** Why it is broken (empty when not), and notes (e.g. a rollback target older than the release before). */
  problems: string[];
  notes: string[];
  /** ms of the whole cut: flash, cut, boot, checks, the next flash. */
  ms: number;
  bootMs: number;
}

export interface CutsResult {
  seed: number;
  cuts: Cut[];
  old: number;
  new: number;
  broken: number;
  summary: string;
}


/** What a command line looks like in the echo once spaces, line wraps and escape sequences are taken out. */
export function compact(text: string): string {
  return text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/[\s\x08\x00-\x1f]/g, '');
}

/** The fixed start of a profile command (up to its first placeholder other than a path), compacted. */
export function commandStart(profile: ConsoleProfile, name: keyof ConsoleProfile['commands']): string {
  const cut = '\u0001';
  const values = Object.fromEntries(['image', 'folder', 'link', 'target', 'paths', 'file'].map((k) => [k, cut]));
  return compact(fill(profile.commands[name]!, values, profile).split(cut)[0]);
}

/**
 * Follows one flash on ttyS0: the time of each mark, in order. Each mark is
 * looked for only after the one before it, in the echo of the command lines.
 */
export class FlashWatch {
  readonly at = new Map<Mark, number>();
  private raw = '';
  private from = 0;
  private readonly t0 = Date.now();
  private readonly starts: Array<[Mark, string[]]>;
  onMark: (m: Mark) => void = () => undefined;
  /** The harness's progress lines once the transfer has begun on ttyS0: bytes sent of the image's. */
  onProgress: (sent: number, total: number) => void = () => undefined;

  constructor(profile: ConsoleProfile) {
    const c = (n: keyof ConsoleProfile['commands']) => commandStart(profile, n);
    this.starts = [
      ['transfer', [c('receiveZmodem'), c('receive')]],
      ['checksum', [c('sha256')]],
      ['unpack', [c('unpack')]],
      ['swap', [c('readLink')]],
      ['restart', [c('restartWeb')]],
      ['prune', [c('list')]],
    ];
  }

  get seen(): Mark[] {
    return MARKS.filter((m) => this.at.has(m));
  }

  get last(): Mark | undefined {
    return this.seen.at(-1);
  }

  /** The new release folder, from the echo of the unpack command. */
  folder(): string | undefined {
    const start = this.starts[2][1][0];
    const text = compact(this.raw);
    const i = text.indexOf(start);
    return i < 0 ? undefined : /^(\d{8}T\d{9}Z-[\w.-]+?)(?:&&|;|$)/.exec(text.slice(i + start.length))?.[1];
  }

  private mark(m: Mark): void {
    if (this.at.has(m)) return;
    this.at.set(m, Date.now() - this.t0);
    this.onMark(m);
  }

  serial(chunk: Buffer): void {
    this.raw += chunk.toString('latin1');
    const text = compact(this.raw);
    for (const [m, starts] of this.starts) {
      if (this.at.has(m)) continue;
      const hits = starts.map((s) => text.indexOf(s, this.from)).filter((i) => i >= 0);
      if (!hits.length) break;
      this.from = Math.min(...hits) + 1;
      this.mark(m);
    }
  }

  /** A line the harness printed. */
  harness(line: string): void {
    if (/\] prune releases: (ok|FAILED)/.test(line)) this.mark('end');
    // hil/progress.ts: "[terminal] ZMODEM [####....] 137216/258048 B  42.2 kB/s  ETA 0:02", a line every 2 s in a log.
    const progress = / \[[#.]+\] (\d+)\/(\d+) B /.exec(line);
    if (progress && this.at.has('transfer') && !this.at.has('checksum')) this.onProgress(Number(progress[1]), Number(progress[2]));
  }

  /** ms since the watch began. */
  now(): number {
    return Date.now() - this.t0;
  }

  /** How long each phase took: from its mark to the next phase's mark. */
  lengths(): Partial<Record<Phase, number>> {
    const next: Record<Phase, Mark> = { transfer: 'checksum', unpack: 'swap', swap: 'restart', prune: 'end' };
    const out: Partial<Record<Phase, number>> = {};
    for (const p of PHASES) {
      const a = this.at.get(p);
      const b = this.at.get(next[p]);
      if (a !== undefined && b !== undefined) out[p] = b - a;
    }
    return out;
  }
}

/** A shell on ttyS0 for the checks: commands between markers the echo of the line cannot match. */
class Console {
  constructor(readonly link: ByteLink, readonly profile: ConsoleProfile) {}

  async signIn(): Promise<void> {
    await this.link.settle(300, 3000);
    this.link.drain();
    await this.link.write('\r');
    const first = await this.link.expect(new RegExp(`${this.profile.prompts.login}|${this.profile.prompts.shell}`, 'm'), 20_000);
    if (new RegExp(this.profile.prompts.shell, 'm').test(first)) return;
    await this.link.write(`${this.profile.user}\r`);
    await this.link.expect(new RegExp(this.profile.prompts.password, 'm'), 20_000);
    await this.link.write(`${this.profile.password}\r`);
    await this.link.expect(new RegExp(this.profile.prompts.shell, 'm'), 20_000);
  }

  async run(line: string, timeoutMs = 30_000): Promise<{ status: number; out: string }> {
    let text = '';
    for (let attempt = 0; !text; attempt++) {
      this.link.drain();
      await this.link.write(`echo _C''UT_; ${line}; echo _C''UT_$?_\r`);
      try {
        text = await this.link.expect(/_CUT_(\d+)_\r?\n/, timeoutMs);
      } catch (e) {
        if (attempt) throw e;
        // Once: interrupt whatever holds the line, drop the typed line, and sign in again if it asks.
        await this.link.write('\x03\x15\r');
        await this.signIn();
      }
    }
    const m = /_CUT_\r?\n([^]*?)_CUT_(\d+)_/.exec(text);
    if (!m) throw new Error(`no markers around the output of ${line}: ${JSON.stringify(text.slice(-300))}`);
    return { status: Number(m[2]), out: m[1].replace(/\r\n/g, '\n') };
  }
}

type Manifest = FlashImage['manifest'];

/** A release folder's manifest.json, as it is on the board's disk. */
async function manifestOf(c: Console, dir: string): Promise<Manifest | string> {
  const r = await c.run(`cat ${dir}/manifest.json`);
  if (r.status !== 0) return `${dir}/manifest.json cannot be read`;
  try {
    const m = JSON.parse(r.out.trim()) as Manifest;
    if (!Array.isArray(m.files) || !m.files.length) return `${dir}/manifest.json lists no files`;
    return m;
  } catch {
    return `${dir}/manifest.json is not JSON (${r.out.trim().length} characters${r.out.trim() ? '' : ': empty'})`;
  }
}

/** What is wrong with a release folder on the board's disk: each file of its manifest, by sha256sum. */
async function releaseProblems(c: Console, dir: string): Promise<string[]> {
  const m = await manifestOf(c, dir);
  if (typeof m === 'string') return [m];
  const r = await c.run(`cd ${dir} && sha256sum *.gz; cd /`);
  const sums = new Map<string, string>();
  for (const l of r.out.split('\n')) {
    const x = /^([0-9a-f]{64})\s+(\S+)$/.exec(l.trim());
    if (x) sums.set(x[2], x[1]);
  }
  const bad: string[] = [];
  for (const f of m.files) {
    const got = sums.get(`${f.path}.gz`);
    if (!got) bad.push(`${f.path}.gz missing`);
    else if (got !== f.sha256) bad.push(`${f.path}.gz differs`);
  }
  return bad.length ? [`${dir}: ${bad.length} of ${m.files.length} files bad (${bad.slice(0, 3).join(', ')}${bad.length > 3 ? ', …' : ''})`] : [];
}

interface Flash {
  child: ChildProcess;
  watch: FlashWatch;
  done: Promise<{ code: number | null; out: string }>;
}

/** The harness (hil/cli.ts, --no-suites) flashing the board; its output and ttyS0 go to a FlashWatch. */
function flash(board: Board, profile: ConsoleProfile, o: { profile: string; brand: string; protocol: Protocol; report: string; serial: (f: (d: Buffer) => void) => void }): Flash {
  const watch = new FlashWatch(profile);
  o.serial((d) => watch.serial(d));
  const args = ['--import', 'tsx', join(ROOT, 'hil/cli.ts'), '--serial', board.serialUrl, '--url', board.url, '--console-profile', o.profile, '--brand', o.brand, '--no-suites', '--protocol', o.protocol, '--report', o.report];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let part = '';
  const take = (d: Buffer) => {
    out = (out + d).slice(-20_000);
    const lines = (part + d).split(/\r|\n/);
    part = lines.pop()!;
    for (const l of lines) watch.harness(l);
  };
  child.stdout!.on('data', take);
  child.stderr!.on('data', take);
  const done = new Promise<{ code: number | null; out: string }>((res) => child.on('exit', (code) => res({ code, out })));
  return { child, watch, done };
}

const tail = (out: string, n = 6) => out.trim().split('\n').slice(-n).join(' | ');

export async function runCuts(o: CutOptions): Promise<CutsResult> {
  const log = o.log ?? ((l: string) => console.log(l));
  const seed = o.seed ?? randomInt(1, 2 ** 31);
  const rand = prng(seed);
  const brand = o.brand ?? 'ia';
  const spread = o.spread ?? 0.9;
  const protocols = o.protocols?.length ? o.protocols : (['zmodem'] as Protocol[]);
  const dir = mkdtempSync(join(tmpdir(), 'board-cuts-'));
  log(`cuts: seed ${seed} (--seed ${seed} replays the same phases, shares and protocols)`);
  const files: BoardFiles = prepareBoard({ brand, profile: o.profile, disk: o.disk ?? join(dir, 'data.img'), fresh: true, log });
  const profile = files.profile;
  const { www, releases } = profile.paths;
  const apiPort = await freePort(); // nothing listens: the checks fetch static files only
  let listener: ((d: Buffer) => void) | undefined;
  let board: Board | undefined;
  let link: ByteLink | undefined;
  let running: ChildProcess | undefined;
  const cuts: Cut[] = [];

  const boot = async (): Promise<{ c: Console; ms: number }> => {
    board = await startBoard({ files, apiPort, accel: o.accel, onSerial: (d) => listener?.(d) });
    const ms = await board.booted;
    link = await openTcpLink(board.serialUrl);
    const c = new Console(link, profile);
    await c.signIn();
    return { c, ms };
  };
  const down = async () => {
    await link?.close().catch(() => undefined);
    await board?.close();
    link = board = undefined;
  };
  /** A whole flash that must pass; the lengths of its phases time the next cut. */
  const fullFlash = async (protocol: Protocol): Promise<{ ok: boolean; why: string; lengths: Partial<Record<Phase, number>> }> => {
    // Never tried again: a next flash that fails is the cut's problem, whatever failed.
    const f = flash(board!, profile, { profile: o.profile ?? 'board', brand, protocol, report: join(dir, 'report'), serial: (l) => (listener = l) });
    running = f.child;
    const r = await f.done;
    running = listener = undefined;
    const why = r.code === 0 ? '' : `the next flash failed (exit ${r.code}): ${tail(r.out)}`;
    return { ok: r.code === 0, why, lengths: f.watch.lengths() };
  };

  try {
    let { c, ms: bootMs } = await boot();
    // Each cut's phase, share and protocol, from the seed alone (the flash before a cut uses the cut's protocol, so it times the same transfer).
    const plans = Array.from({ length: o.cuts }, (_, i) => ({
      phase: o.phases ? o.phases[i % o.phases.length] : PHASES[Math.floor(rand() * PHASES.length)],
      share: rand() * spread,
      protocol: protocols[Math.floor(rand() * protocols.length)],
    }));
    const timing = plans[0] && plans[0].phase !== 'transfer' ? 'a first flash to time the phases' : 'the first cut is in the transfer, aimed by its bytes: no flash before it';
    log(`cuts: board up in ${(bootMs / 1000).toFixed(1)} s (${board!.accel.toUpperCase()}), fresh /data; ${timing}`);
    // A cut in the transfer is aimed at a share of the image's bytes, read off the harness's progress lines, so
    // it needs no flash before it to time it and comes inside the transfer however slow the line. A cut in another
    // phase waits a share of that phase's length in the flash before: the first one needs a flash to time it.
    let prev: Awaited<ReturnType<typeof fullFlash>> = { ok: true, why: '', lengths: {} };
    if (plans[0] && plans[0].phase !== 'transfer') {
      const first = await fullFlash(plans[0].protocol);
      if (!first.ok) throw new Error(`the first flash of the fresh board failed: ${first.why}`);
      prev = first;
    }
    for (let n = 1; n <= o.cuts; n++) {
      const t0 = Date.now();
      const { phase, share, protocol } = plans[n - 1];
      const before = (await c.run(`readlink ${www}`)).out.trim();
      const previous = (await c.run(`readlink ${www}.previous`)).out.trim();
      const listed = new Set((await c.run(`ls -1 ${releases}`)).out.split('\n').map((s) => s.trim()).filter(Boolean));
      const delay = Math.round(share * (prev.lengths[phase] ?? 0)); // phases after the transfer

      // The flash, and the cut inside the phase.
      const f = flash(board!, profile, { profile: o.profile ?? 'board', brand, protocol, report: join(dir, 'report'), serial: (l) => (listener = l) });
      running = f.child;
      const placed = await new Promise<Placement>((resolve) => {
        let timer: NodeJS.Timeout | undefined;
        let phaseAt = 0;
        let done = false;
        const cut = () => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          const last = f.watch.last;
          resolve({ phase: last ?? 'before', seen: f.watch.seen, afterMs: f.watch.now() - phaseAt });
        };
        f.watch.onMark = (m) => {
          if (m === phase) {
            phaseAt = f.watch.now();
            if (phase !== 'transfer') timer = setTimeout(cut, delay);
          }
        };
        if (phase === 'transfer') f.watch.onProgress = (sent, total) => sent >= share * total && cut();
        void f.done.then(cut);
      });
      await board!.powerCut();
      f.child.kill('SIGKILL');
      await f.done;
      running = listener = undefined;
      const made = f.watch.folder();
      await down();

      // Boot again on the same disk, and check.
      const problems: string[] = [];
      const notes: string[] = [];
      let live = '';
      let on: Cut['on'] = 'neither';
      try {
        ({ c, ms: bootMs } = await boot());
      } catch (e) {
        problems.push(`the board did not come back: ${(e as Error).message.split('\n')[0]}`);
        cuts.push({ n, phase, protocol, share, placed, outcome: 'broken', on, live, before, made, problems, notes, ms: Date.now() - t0, bootMs: 0 });
        log(describe(cuts.at(-1)!, o.cuts));
        break;
      }
      live = (await c.run(`readlink ${www}`)).out.trim();
      const name = live.split('/').pop() ?? '';
      on = live === before ? 'old' : live && !listed.has(name) && live.startsWith(`${releases}/`) ? 'new' : 'neither';
      let outcome: Outcome = on === 'neither' ? 'broken' : on;
      if (on === 'neither') problems.push(`${www} points at ${JSON.stringify(live)}, neither the old ${before} nor a release the flash made`);
      if (live) {
        const m = await manifestOf(c, live);
        if (typeof m === 'string') problems.push(m);
        else {
          try {
            await waitForHttp(board!.url, 30_000);
            const bad = (await verifyServed(board!.url, { manifest: m } as FlashImage)).filter((x) => !x.ok);
            if (bad.length) problems.push(`lighttpd serves ${bad.length} of ${m.files.length} files wrong (${bad.slice(0, 3).map((b) => `${b.path}: ${b.problem}`).join('; ')})`);
          } catch (e) {
            problems.push((e as Error).message);
          }
        }
      }
      problems.push(...(await releaseProblems(c, `${releases}/factory`)));
      const rollback = (await c.run(`readlink ${www}.previous`)).out.trim();
      const expected = outcome === 'new' ? before : previous;
      if (!rollback && expected) problems.push(`${www}.previous is gone (it was ${expected})`);
      else if (rollback && rollback !== live) {
        problems.push(...(await releaseProblems(c, rollback)));
        if (rollback !== expected) notes.push(`rollback target ${rollback}, not ${expected} (cut between the two swaps)`);
      }
      prev = await fullFlash(plans[n]?.protocol ?? protocol);
      if (!prev.ok) problems.push(prev.why);
      if (problems.length) outcome = 'broken';
      const cutResult: Cut = { n, phase, protocol, share, placed, outcome, on, live, before, made, problems, notes, ms: Date.now() - t0, bootMs };
      cuts.push(cutResult);
      log(describe(cutResult, o.cuts));
    }
    await down();
  } finally {
    running?.kill('SIGKILL');
    await down().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
  const count = (k: Outcome) => cuts.filter((x) => x.outcome === k).length;
  const r = { seed, cuts, old: count('old'), new: count('new'), broken: count('broken') };
  return { ...r, summary: `${cuts.length} cuts: ${r.old} old, ${r.new} new, ${r.broken} broken` };
}

/** One line per cut. */
export function describe(x: Cut, of: number): string {
  const where = x.placed.phase === x.phase ? `${x.phase} +${x.placed.afterMs} ms` : `meant ${x.phase}, came in ${x.placed.phase}`;
  const what = x.outcome === 'broken' ? `BROKEN (on ${x.on}): ${x.problems.join('; ')}` : `${x.outcome} (${x.live})`;
  return `cut ${x.n}/${of}: ${where}, ${x.protocol.toUpperCase()}: ${what}${x.notes.length ? ` [${x.notes.join('; ')}]` : ''} (${(x.ms / 1000).toFixed(1)} s, boot ${(x.bootMs / 1000).toFixed(1)} s)`;
}
