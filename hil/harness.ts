// One terminal through the whole loop: image, serial sign-in, transfer
// (ZMODEM when the terminal has rz, else YMODEM), SHA-256 check, install
// into a new release folder and one atomic swap, web server restart,
// served-file check, pruning of old releases, browser suites, report. Any
// failure before the swap leaves the old console serving. Also the way back
// (rollbackTerminal), and what a signal does: the transfer is cancelled, the
// console left at its prompt, the report written with the step it stopped.
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuilt } from '../build.ts';
import { makeImage, type FlashImage } from './image.ts';
import { openLink, type ByteLink } from '../serial/link.ts';
import { fill, loadConsoleProfile, type ConsoleProfile } from '../serial/console-profile.ts';
import { MARKER, ShellDriver } from './shell-driver.ts';
import { ymodemSend, type BatchEnd } from '../serial/ymodem-send.ts';
import type { Protocol } from '../serial/transfer.ts';
import { zmodemSend } from '../serial/zmodem.ts';
import { progressPrinter } from './progress.ts';
import { verifyServed, waitForHttp } from './verify.ts';
import { summarize, type ReplyRecord } from './conformance.ts';
import { transferText, type TerminalResult, type TerminalTarget, type TransferFigures } from './result.ts';
import { readJunit, writeReport } from './report.ts';
import { runSuites } from './suites.ts';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

export interface RunOptions {
  reportRoot: string;
  /** Rebuild dist/<brand> even when it exists. */
  rebuild?: boolean;
  /** Skip the browser suites (flash and verify only). */
  noSuites?: boolean;
  /** Extra arguments for `playwright test` (e.g. a --grep). */
  playwrightArgs?: string[];
  /** Transfer retries and timeouts (tests shorten them). */
  transfer?: { retries?: number; timeoutMs?: number };
  /** Use this protocol whatever the profile says. */
  protocol?: Protocol;
  /** Wrap the opened link (tests put a fault shim here). */
  wrapLink?: (link: ByteLink) => ByteLink;
  /** Aborted (a signal): the step under way stops, the console is restored, the report says where it stopped. */
  signal?: AbortSignal;
  log?: (line: string) => void;
}

export class Interrupted extends Error {
  constructor(readonly signal: string) {
    super(`interrupted (${signal})`);
  }
}

/** A release folder name: UTC time (so names sort oldest first), then the image's release. */
export function releaseFolder(release: string, now = new Date()): string {
  return `${now.toISOString().replace(/[-:]/g, '').replace(/\.(\d{3})Z$/, '$1Z')}-${release}`;
}
const OURS = /^\d{8}T\d{9}Z-/;

/**
 * Which release folders to remove: of the folders this harness made (named
 * by releaseFolder), all but the newest `keep`; never the live one or the one
 * to roll back to, and never a folder someone else made (a factory release).
 */
export function foldersToPrune(names: string[], keep: number, live: string, previous: string): string[] {
  const ours = names.filter((n) => OURS.test(n)).sort().reverse();
  const kept = new Set([live, previous].filter(Boolean));
  for (const n of ours) if (kept.size < keep) kept.add(n);
  return ours.filter((n) => !kept.has(n)).sort();
}

const baseName = (p: string) => p.replace(/\/+$/, '').split('/').pop() ?? '';

/** One run against one terminal: its steps, link, shell and report. */
class Run {
  readonly result: TerminalResult;
  readonly log: (line: string) => void;
  readonly profile: ConsoleProfile;
  link?: ByteLink;
  shell?: ShellDriver;
  private readonly stopped: Promise<never>;

  constructor(readonly target: TerminalTarget, readonly opts: RunOptions, mode: TerminalResult['mode']) {
    this.log = (line: string) => (opts.log ?? console.log)(`[${target.name}] ${line}`);
    const dir = resolve(opts.reportRoot, target.name.replace(/[^\w.-]/g, '_'));
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    this.result = { target, ok: false, mode, steps: [], files: [], conformance: [], reportDir: dir };
    this.profile = loadConsoleProfile(target.profile);
    this.stopped = new Promise<never>((_, reject) => {
      const stop = () => {
        const e = new Interrupted(String(opts.signal?.reason ?? 'signal'));
        this.link?.interrupt(e); // reads under way fail now; the step's own cleanup (a transfer's CAN) still writes
        reject(e);
      };
      if (opts.signal?.aborted) stop();
      else opts.signal?.addEventListener('abort', stop, { once: true });
    });
    this.stopped.catch(() => undefined);
  }

  cmd(name: keyof ConsoleProfile['commands'], values: Record<string, string> = {}): string {
    const t = this.profile.commands[name];
    if (!t) throw new Error(`terminal profile: commands.${name} is missing`);
    return fill(t, values, this.profile);
  }

  async step<T>(name: string, fn: () => Promise<T>, detail: (v: T) => string = () => ''): Promise<T> {
    const t0 = Date.now();
    const work = fn();
    work.catch(() => undefined);
    try {
      const v = await Promise.race([work, this.stopped]);
      this.result.steps.push({ name, ok: true, ms: Date.now() - t0, detail: detail(v) });
      const d = this.result.steps.at(-1)!.detail;
      this.log(`${name}: ok${d ? ` (${d})` : ''}`);
      return v;
    } catch (e) {
      let msg = (e as Error).message;
      if (e instanceof Interrupted) {
        this.result.interrupted = { signal: e.signal, step: name };
        // Let the step end on its own (a transfer sends its cancel) before anyone else writes.
        await Promise.race([work.catch(() => undefined), new Promise((r) => setTimeout(r, 5000))]);
        msg = `interrupted by ${e.signal}`;
      }
      this.result.steps.push({ name, ok: false, ms: Date.now() - t0, detail: msg });
      this.log(`${name}: FAILED: ${msg}`);
      throw e;
    }
  }

  async connect(): Promise<ShellDriver> {
    const { target, opts } = this;
    this.link = await this.step('connect', async () => {
      const l = await openLink(target.serial, target.baud);
      return opts.wrapLink ? opts.wrapLink(l) : l;
    }, () => `${target.serial}${target.serial.startsWith('tcp://') ? '' : ` at ${target.baud} baud`}`);
    const shell = new ShellDriver(this.link, this.profile, this.log);
    this.shell = shell;
    await this.step('sign in', () => shell.signIn(), () => `as ${this.profile.user}`);
    return shell;
  }

  /** What /www points at now, '' if it is not a symlink (or the link is missing). */
  async readLink(link: string): Promise<string> {
    try {
      return (await this.shell!.run(this.cmd('readLink', { link }))).split(/\r?\n/).pop()!.trim();
    } catch {
      return '';
    }
  }

  async swap(link: string, target: string): Promise<void> {
    await this.shell!.run(this.cmd('setLink', { link, target }));
  }

  async restartAndVerify(manifest: FlashImage['manifest']): Promise<void> {
    const { target, profile } = this;
    await this.step('restart web server', () => this.shell!.run(this.cmd('restartWeb')));
    await this.step('web server up', () => waitForHttp(target.url, profile.timeouts.httpMs), (ms) => `after ${ms} ms`);
    this.result.files = await this.step('served files', async () => {
      const checks = await verifyServed(target.url, { manifest } as FlashImage);
      const bad = checks.filter((c) => !c.ok);
      if (bad.length) throw new Error(`${bad.length} of ${checks.length} files differ: ${bad.map((b) => `${b.path} (${b.problem})`).join('; ')}`);
      return checks;
    }, (c) => `${c.length} files match the manifest`);
  }

  /** After a signal: cancel what runs on the console and get back to its prompt. */
  async restoreConsole(): Promise<void> {
    const { link, shell } = this;
    if (!link || !shell || link.closed) return;
    link.interrupt(null);
    try {
      await shell.backToPrompt();
      this.log('console restored: transfer cancelled, back at the shell prompt');
    } catch (e) {
      this.log(`console: could not get back to the prompt (${(e as Error).message}); the next run cancels and clears the line at sign-in`);
    }
  }

  async end(): Promise<TerminalResult> {
    const { result } = this;
    if (result.interrupted) await this.restoreConsole();
    await this.link?.close().catch(() => undefined);
    const dir = result.reportDir;
    const replies = join(dir, 'replies.jsonl');
    if (existsSync(replies)) {
      const records = readFileSync(replies, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as ReplyRecord);
      result.conformance = summarize(records);
    }
    const tests = join(dir, 'playwright-junit.xml');
    if (!result.tests && existsSync(tests)) result.tests = readJunit(tests);
    writeReport(result, screenshots(dir));
    this.log(`report: ${relative(process.cwd(), join(dir, 'report.html'))}`);
    return result;
  }
}

/** Send the image with the protocol the terminal can take; the figures of the whole transfer and of its data. */
async function transfer(run: Run, image: FlashImage): Promise<TransferFigures> {
  const { shell, link, profile, target, opts } = run;
  const detect = async (): Promise<Protocol> => {
    const found = await shell!.run(run.cmd('hasZmodem')).then(() => true, () => false);
    run.log(`transfer: ${found ? 'the terminal has rz: ZMODEM' : 'no rz on the terminal: YMODEM with rb'}`);
    return found ? 'zmodem' : 'ymodem';
  };
  const protocol = opts.protocol ?? (profile.protocol === 'auto' ? await detect() : profile.protocol);
  const cmd = run.cmd(protocol === 'zmodem' ? 'receiveZmodem' : 'receive');
  const bytes = image.data.length;
  const files = [{ name: image.name, data: image.data }];
  const bar = progressPrinter(`[${target.name}] ${protocol.toUpperCase()}`, bytes);
  const data = { from: 0, to: 0 };
  const onProgress = (p: { bytes: number; total: number }) => {
    if (p.bytes === 0 && !data.from) data.from = performance.now();
    if (p.bytes === p.total) data.to = performance.now();
    bar.update(p.bytes);
  };
  // The shell coming back (its marker) also ends the session: a receiver that quit before its last answer reached us.
  const shellBack = new RegExp(`${MARKER.source}|${shell!.prompt.source}`, 'm');
  const t0 = performance.now();
  await shell!.start(cmd);
  const ended: BatchEnd =
    protocol === 'zmodem'
      ? (await zmodemSend(link!, files, { ...opts.transfer, onProgress, shellBack })).ended === 'zfin' ? 'receiver' : 'shell back'
      : (await ymodemSend(link!, files, { ...opts.transfer, onProgress, shellBack })).ended;
  bar.done(bytes);
  await shell!.finish(cmd);
  const seconds = (performance.now() - t0) / 1000;
  const dataSeconds = Math.max(0.001, (data.to - data.from) / 1000);
  const paced = !target.serial.startsWith('tcp://');
  const share = (s: number) => (paced ? ((bytes * 10) / target.baud / s) * 100 : 0);
  return {
    protocol,
    bytes,
    seconds,
    bytesPerSecond: bytes / seconds,
    dataSeconds,
    dataBytesPerSecond: bytes / dataSeconds,
    lineRatePercent: share(seconds),
    dataLineRatePercent: share(dataSeconds),
    ended,
  };
}

export async function runTerminal(target: TerminalTarget, opts: RunOptions): Promise<TerminalResult> {
  const run = new Run(target, opts, 'flash');
  const { result, profile } = run;
  try {
    const image = await run.step('image', async () => {
      const site = join(ROOT, 'dist', target.brand);
      await ensureBuilt(target.brand, { quiet: true, rebuild: opts.rebuild });
      return makeImage(site);
    }, (i) => `${i.name}, ${i.data.length} bytes, sha256 ${i.sha256.slice(0, 16)}…`);
    result.image = { name: image.name, bytes: image.data.length, sha256: image.sha256, release: image.release };
    const shell = await run.connect();
    const vars = { image: image.name };

    result.transfer = await run.step('transfer', () => transfer(run, image), (t) => transferText(t, target.baud));

    await run.step('checksum', async () => {
      const out = await shell.run(run.cmd('sha256', vars));
      const got = /\b([0-9a-f]{64})\b/.exec(out)?.[1];
      if (!got) throw new Error(`the terminal printed no SHA-256: ${JSON.stringify(out.slice(0, 200))}`);
      if (got !== image.sha256) throw new Error(`the terminal has ${got}, the image is ${image.sha256}: not installing`);
      return got;
    }, (sha) => `terminal reports ${sha.slice(0, 16)}…, same as the image`);

    // Always a new folder, even for the build that is live now: the live one is never touched, and /www moves in one rename.
    const { www, releases } = profile.paths;
    const folder = releaseFolder(image.release);
    const before = await run.step('install', async () => {
      await shell.run(run.cmd('unpack', { ...vars, folder }));
      const live = await run.readLink(www);
      await run.swap(www, `${releases}/${folder}`);
      if (live) await run.swap(`${www}.previous`, live);
      return live;
    }, (live) => `${releases}/${folder} is live${live ? `; ${live} kept for --rollback` : ''}`);
    result.releases = { live: folder, previous: baseName(before), removed: [] };
    if (profile.commands.cleanup) await shell.run(run.cmd('cleanup', vars)).catch(() => '');

    await run.restartAndVerify(image.manifest);

    result.releases.removed = await run.step('prune releases', async () => {
      const names = (await shell.run(run.cmd('list'))).split(/\r?\n/).map((n) => n.trim()).filter(Boolean);
      const drop = foldersToPrune(names, profile.keepReleases, folder, baseName(before));
      if (drop.length) await shell.run(run.cmd('remove', { paths: drop.map((n) => `${releases}/${n}`).join(' ') }));
      return drop;
    }, (drop) => `${drop.length ? `removed ${drop.join(', ')}` : 'nothing to remove'}; keeping ${profile.keepReleases}`);

    if (!opts.noSuites) {
      result.tests = await run.step('browser suites', async () => {
        const s = await runSuites(target, result.reportDir, opts.playwrightArgs ?? [], run.log, opts.signal);
        if (s.failures) throw new Error(`${s.failures} of ${s.tests} tests failed: ${s.failed.join('; ')}`);
        return s;
      }, (s) => `${s.tests - s.skipped - s.failures} passed, ${s.skipped} skipped`);
    }
    result.ok = true;
  } catch {
    result.ok = false;
  }
  return run.end();
}

/**
 * `npm run hil -- --rollback`: point /www back at the release before the
 * live one (the install kept it as /www.previous), restart the web server
 * and check that every file it serves matches that release's manifest.
 * Rolling back twice returns to where it started.
 */
export async function rollbackTerminal(target: TerminalTarget, opts: RunOptions): Promise<TerminalResult> {
  const run = new Run(target, opts, 'rollback');
  const { result, profile } = run;
  const { www } = profile.paths;
  try {
    const shell = await run.connect();
    const { live, previous, manifest } = await run.step('find releases', async () => {
      const live = await run.readLink(www);
      const previous = await run.readLink(`${www}.previous`);
      if (!previous) throw new Error(`${www}.previous does not exist: there is no earlier release to go back to (an install keeps one)`);
      const text = await shell.run(run.cmd('readFile', { file: `${previous}/manifest.json` }));
      const manifest = JSON.parse(text.slice(text.indexOf('{'))) as FlashImage['manifest'];
      return { live, previous, manifest };
    }, (r) => `live ${r.live || '(none)'}, going back to ${r.previous} (${r.manifest.brand} ${r.manifest.version})`);
    await run.step('swap back', async () => {
      await run.swap(www, previous);
      if (live) await run.swap(`${www}.previous`, live);
    }, () => `${www} -> ${previous}${live ? `; ${live} is now the one to roll back to` : ''}`);
    result.releases = { live: baseName(previous), previous: baseName(live), removed: [] };
    await run.restartAndVerify(manifest);
    result.ok = true;
  } catch {
    result.ok = false;
  }
  return run.end();
}

/** Failure screenshots Playwright saved for this run. */
function screenshots(dir: string): string[] {
  const root = join(dir, 'test-results');
  if (!existsSync(root)) return [];
  const found: string[] = [];
  for (const d of readdirSync(root, { withFileTypes: true })) {
    if (!d.isDirectory()) continue;
    for (const f of readdirSync(join(root, d.name))) if (f.endsWith('.png')) found.push(relative(dir, join(root, d.name, f)));
  }
  return found.sort();
}
