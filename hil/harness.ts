// One terminal through the whole loop: image, serial sign-in, YMODEM
// transfer, SHA-256 check, atomic install, web server restart, served-file
// check, browser suites, report. Any failure before the swap leaves the old
// console serving.
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from '../build.ts';
import { makeImage, type FlashImage } from './image.ts';
import { openLink, type ByteLink } from './link.ts';
import { fill, loadTerminalProfile } from './profile.ts';
import { ShellDriver } from './shell-driver.ts';
import { ymodemSend } from './ymodem.ts';
import { progressPrinter } from './progress.ts';
import { verifyServed, waitForHttp, type FileCheck } from './verify.ts';
import { summarize, type CallConformance, type ReplyRecord } from './conformance.ts';
import { readJunit, writeReport } from './report.ts';
import { runSuites } from './suites.ts';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

export interface TerminalTarget {
  name: string;
  /** Device path or tcp://host:port. */
  serial: string;
  baud: number;
  /** The terminal's web address. */
  url: string;
  brand: string;
  /** Terminal profile name or path. */
  profile: string;
}

export interface RunOptions {
  reportRoot: string;
  /** Rebuild dist/<brand> even when it exists. */
  rebuild?: boolean;
  /** Skip the browser suites (flash and verify only). */
  noSuites?: boolean;
  /** Extra arguments for `playwright test` (e.g. a --grep). */
  playwrightArgs?: string[];
  /** YMODEM retries and timeouts (tests shorten them). */
  transfer?: { retries?: number; timeoutMs?: number };
  /** Wrap the opened link (tests put a fault shim here). */
  wrapLink?: (link: ByteLink) => ByteLink;
  log?: (line: string) => void;
}

export interface Step {
  name: string;
  ok: boolean;
  ms: number;
  detail: string;
}

export type { TestSummary } from './report.ts';
import type { TestSummary } from './report.ts';

export interface TerminalResult {
  target: TerminalTarget;
  ok: boolean;
  steps: Step[];
  image?: { name: string; bytes: number; sha256: string; release: string };
  transfer?: { seconds: number; bytesPerSecond: number; lineRatePercent: number };
  files: FileCheck[];
  tests?: TestSummary;
  conformance: CallConformance[];
  reportDir: string;
}

/** The transfer rate as a share of the line rate; a pty or a network link is not paced by the baud rate. */
export function lineRateText(percent: number, baud: number): string {
  if (!percent) return '';
  if (percent > 105) return `; faster than ${baud} baud, so this link does not pace at the baud rate (a pty or a network)`;
  return `, ${percent.toFixed(1)} % of the ${baud} baud line rate`;
}

export async function runTerminal(target: TerminalTarget, opts: RunOptions): Promise<TerminalResult> {
  const log = (line: string) => (opts.log ?? console.log)(`[${target.name}] ${line}`);
  const dir = resolve(opts.reportRoot, target.name.replace(/[^\w.-]/g, '_'));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const result: TerminalResult = { target, ok: false, steps: [], files: [], conformance: [], reportDir: dir };
  const profile = loadTerminalProfile(target.profile);
  let link: ByteLink | undefined;
  let image: FlashImage | undefined;

  const step = async <T,>(name: string, fn: () => Promise<T>, detail: (v: T) => string = () => ''): Promise<T> => {
    const t0 = Date.now();
    try {
      const v = await fn();
      result.steps.push({ name, ok: true, ms: Date.now() - t0, detail: detail(v) });
      log(`${name}: ok${result.steps.at(-1)!.detail ? ` (${result.steps.at(-1)!.detail})` : ''}`);
      return v;
    } catch (e) {
      const msg = (e as Error).message;
      result.steps.push({ name, ok: false, ms: Date.now() - t0, detail: msg });
      log(`${name}: FAILED: ${msg}`);
      throw e;
    }
  };

  try {
    image = await step('image', async () => {
      const site = join(ROOT, 'dist', target.brand);
      if (opts.rebuild || !existsSync(join(site, 'manifest.json'))) await build({ brands: [target.brand], quiet: true });
      return makeImage(site);
    }, (i) => `${i.name}, ${i.data.length} bytes, sha256 ${i.sha256.slice(0, 16)}…`);
    result.image = { name: image.name, bytes: image.data.length, sha256: image.sha256, release: image.release };
    const vars = { image: image.name, release: image.release };

    link = await step('connect', async () => {
      const l = await openLink(target.serial, target.baud);
      return opts.wrapLink ? opts.wrapLink(l) : l;
    }, () => `${target.serial}${target.serial.startsWith('tcp://') ? '' : ` at ${target.baud} baud`}`);
    const shell = new ShellDriver(link, profile, log);
    await step('sign in', () => shell.signIn(), () => `as ${profile.user}`);

    const transfer = await step('transfer', async () => {
      const cmd = fill(profile.commands.receive, vars);
      await shell.start(cmd);
      const bar = progressPrinter(`[${target.name}] YMODEM`, image!.data.length);
      await ymodemSend(link!, [{ name: image!.name, data: image!.data }], { ...opts.transfer, onProgress: (p) => bar.update(p.bytes) });
      const t = bar.done(image!.data.length);
      await shell.finish(cmd);
      const lineRatePercent = target.serial.startsWith('tcp://') ? 0 : ((t.bytesPerSecond * 10) / target.baud) * 100;
      return { ...t, lineRatePercent };
    }, (t) => `${(t.bytesPerSecond / 1000).toFixed(1)} kB/s in ${t.seconds.toFixed(1)} s${lineRateText(t.lineRatePercent, target.baud)}`);
    result.transfer = transfer;

    await step('checksum', async () => {
      const out = await shell.run(fill(profile.commands.sha256, vars));
      const got = /\b([0-9a-f]{64})\b/.exec(out)?.[1];
      if (!got) throw new Error(`the terminal printed no SHA-256: ${JSON.stringify(out.slice(0, 200))}`);
      if (got !== image!.sha256) throw new Error(`the terminal has ${got}, the image is ${image!.sha256}: not installing`);
      return got;
    }, (sha) => `terminal reports ${sha.slice(0, 16)}…, same as the image`);

    await step('install', () => shell.run(fill(profile.commands.install, vars)), () => `release ${image!.release}`);
    await step('restart web server', () => shell.run(fill(profile.commands.restartWeb, vars)));
    if (profile.commands.cleanup) await shell.run(fill(profile.commands.cleanup, vars)).catch(() => '');

    await step('web server up', () => waitForHttp(target.url, profile.timeouts.httpMs), (ms) => `after ${ms} ms`);
    result.files = await step('served files', async () => {
      const checks = await verifyServed(target.url, image!);
      const bad = checks.filter((c) => !c.ok);
      if (bad.length) throw new Error(`${bad.length} of ${checks.length} files differ: ${bad.map((b) => `${b.path} (${b.problem})`).join('; ')}`);
      return checks;
    }, (c) => `${c.length} files match the manifest`);

    if (!opts.noSuites) {
      result.tests = await step('browser suites', async () => {
        const s = await runSuites(target, dir, opts.playwrightArgs ?? [], log);
        if (s.failures) throw new Error(`${s.failures} of ${s.tests} tests failed: ${s.failed.join('; ')}`);
        return s;
      }, (s) => `${s.tests - s.skipped} passed, ${s.skipped} skipped`);
    }
    result.ok = true;
  } catch {
    result.ok = false;
    const tests = join(dir, 'playwright-junit.xml');
    if (!result.tests && existsSync(tests)) result.tests = readJunit(tests);
  } finally {
    await link?.close().catch(() => undefined);
    const replies = join(dir, 'replies.jsonl');
    if (existsSync(replies)) {
      const records = readFileSync(replies, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as ReplyRecord);
      result.conformance = summarize(records);
    }
    writeReport(result, screenshots(dir));
    log(`report: ${relative(process.cwd(), join(dir, 'report.html'))}`);
  }
  return result;
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
