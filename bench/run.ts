// `npm run bench` (issue 11 §4): every measurement in one run, written to
// results.json and results.md (and the Markdown printed at the end).
//
//   npm run bench                       the full run (bench/results.*: committed, docs/PERFORMANCE.md shows them)
//   npm run bench -- --short            the quick setting the bench's test uses: one brand, one link,
//                                       few walks and repeats, small counts; every section still runs.
//                                       Written to bench/short/ (ignored by git), not over the full run's
//   npm run bench -- --out /tmp/b       write the results elsewhere (default: this folder)
//   npm run bench -- --only bytes,heap  some sections only (names as in results.json)
//   npm run bench -- --only line --server nginx    the slow line through some servers only
//   npm run bench -- --only line --line 256         ... and on some lines only (by kbit/s: 256, 64)
//
// A missed target is a measurement, not a failure: the run exits 0 and says
// which were missed. It exits 1 only when a section could not be measured.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { measureBytes, type BytesSection } from './sizes.ts';
import { openLab, type Lab } from './browser.ts';
import { measureLogin, measureSignIn } from './login.ts';
import { LINES, measureLine } from './line.ts';
import { FRONT_KINDS } from '../hil/web/servers.ts';
import { measureHeap } from './heap.ts';
import { measureRender } from './render.ts';
import { measureYmodem } from './ymodem.ts';
import { measureRecords } from './records.ts';
import { measureSimulator } from './simulator.ts';
import { markdown } from './report.ts';
import { argsOrExit, readArgs } from '../build/args.ts';
import type { Settings, Target } from './lib.ts';
import type { Results } from './results.ts';

type Key = keyof Results['sections'];
const KEYS: Key[] = ['bytes', 'line', 'coldLogin', 'signIn', 'heap', 'render', 'ymodem', 'records', 'simulator'];

const USAGE = `usage: npm run bench -- [--short] [--out DIR] [--only ${KEYS.join(',')}] [--server ${FRONT_KINDS.join(',')}] [--line ${LINES.map((l) => l.bits / 1000).join(',')}]
Every measurement in one run, into results.json and results.md; bench/run.ts's header says more.`;

const OPTIONS = {
  short: { type: 'boolean' },
  out: { type: 'string' },
  only: { type: 'string' },
  server: { type: 'string' },
  line: { type: 'string' },
} as const;

function parseArgs(argv: string[]): { short: boolean; out: string; only: Set<Key>; servers?: string[]; lines?: string[] } {
  const { values } = readArgs(argv, OPTIONS, USAGE);
  const short = values.short ?? false;
  let only = new Set(KEYS);
  if (values.only !== undefined) {
    const names = values.only.split(',');
    const bad = names.filter((n) => !KEYS.includes(n as Key));
    if (bad.length) throw new Error(`unknown section ${bad.join(', ')} (have ${KEYS.join(', ')})`);
    only = new Set(names as Key[]);
  }
  const servers = values.server?.split(',');
  const bad = (servers ?? []).filter((n) => !(FRONT_KINDS as readonly string[]).includes(n));
  if (bad.length) throw new Error(`unknown server ${bad.join(', ')} (have ${FRONT_KINDS.join(', ')})`);
  const kbits = values.line?.split(',');
  const unknown = (kbits ?? []).filter((k) => !LINES.some((l) => String(l.bits / 1000) === k));
  if (unknown.length) throw new Error(`unknown line ${unknown.join(', ')} (have ${LINES.map((l) => l.bits / 1000).join(', ')}, in kbit/s)`);
  const lines = kbits && LINES.filter((l) => kbits.includes(String(l.bits / 1000))).map((l) => l.name);
  const out = values.out !== undefined ? resolve(values.out) : join(import.meta.dirname, short ? 'short' : '');
  return { short, out, only, servers, lines };
}

/** Every Target in a section, with where it is, e.g. "coldLogin 256 kbit/s, 300 ms" or "simulator last page". */
function targets(key: Key, section: unknown): { where: string; t: Target }[] {
  const found: { where: string; t: Target }[] = [];
  const visit = (v: unknown, where: string) => {
    if (!v || typeof v !== 'object') return;
    if (Array.isArray(v)) return v.forEach((x) => visit(x, where));
    const o = v as Record<string, unknown>;
    // A row of the line section is named by its server, protocol and line, and its parts by their keys.
    const row = typeof o.server === 'string' ? `${o.server} ${o.scheme} ${o.line}` : undefined;
    const name = row ?? ([o.link, o.list, o.path, o.what].find((x) => typeof x === 'string') as string | undefined);
    const here = name && !where.endsWith(name) ? `${where} ${name}` : where;
    const r = o.result as Target | undefined;
    if (r && typeof r.pass === 'boolean') found.push({ where: here, t: r });
    for (const [k, x] of Object.entries(o)) if (k !== 'result' && k !== 'all') visit(x, row ? `${here} ${k}` : here);
  };
  visit(section, key);
  return found;
}

async function main(): Promise<number> {
  const args = argsOrExit('bench', 1, () => parseArgs(process.argv.slice(2)));
  const t0 = performance.now();
  const tmp = mkdtempSync(join(tmpdir(), 'console-bench-'));
  const log = (line: string) => process.stderr.write(`[${((performance.now() - t0) / 1000).toFixed(0).padStart(4)} s] ${line}\n`);
  const s: Settings = { short: args.short, tmp, log, servers: args.servers, lines: args.lines };
  const sections: Results['sections'] = {};
  const run = async <K extends Key>(key: K, fn: () => Promise<NonNullable<Results['sections'][K]>>) => {
    if (!args.only.has(key)) return;
    try {
      sections[key] = await fn();
    } catch (e) {
      const err = e as Error;
      log(`${key} failed: ${err.stack ?? err.message}`);
      sections[key] = { error: err.message.split('\n')[0] } as NonNullable<Results['sections'][K]>;
    }
  };
  const browserKeys: Key[] = ['line', 'coldLogin', 'signIn', 'heap', 'render'];
  let chromiumVersion = '';
  try {
    // The browser sections serve the Preact build of the default brand, so it is built even when only they run.
    let bytes: { section: BytesSection; siteDir: string } | undefined;
    if (args.only.has('bytes') || browserKeys.some((k) => args.only.has(k))) {
      try {
        bytes = await measureBytes(s);
        if (args.only.has('bytes')) sections.bytes = bytes.section;
      } catch (e) {
        log(`build failed: ${(e as Error).stack}`);
        const error = `the build failed: ${(e as Error).message.split('\n')[0]}`;
        for (const k of ['bytes', ...browserKeys] as Key[]) if (args.only.has(k)) sections[k] = { error };
      }
    }
    if (bytes && browserKeys.some((k) => args.only.has(k))) {
      let lab: Lab | undefined;
      try {
        lab = await openLab(bytes.siteDir, tmp);
        chromiumVersion = lab.chromium;
        const l = lab;
        const critical = bytes.section.critical;
        const site = bytes.siteDir;
        await run('line', () => measureLine(s, site, new URL(l.url).host));
        await run('coldLogin', () => measureLogin(s, l, critical));
        await run('signIn', () => measureSignIn(s, l));
        await run('heap', () => measureHeap(s, l));
        await run('render', () => measureRender(s, l));
      } catch (e) {
        const error = `could not start Chromium and the simulated terminal: ${(e as Error).message.split('\n')[0]}`;
        log(error);
        for (const k of browserKeys) if (args.only.has(k)) sections[k] ??= { error };
      } finally {
        await lab?.close();
      }
    }
    // After the browser has gone: these are sensitive to a busy CPU.
    await run('ymodem', () => measureYmodem(s));
    await run('records', () => measureRecords(s));
    await run('simulator', () => measureSimulator(s));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }

  const missed: string[] = [];
  const failed: string[] = [];
  for (const key of KEYS) {
    const v = sections[key];
    if (!v) continue;
    if ('error' in v) failed.push(`${key}: ${v.error}`);
    else for (const { where, t } of targets(key, v)) if (!t.pass) missed.push(`${where} (${t.target})`);
  }
  const cpu = cpus();
  const results: Results = {
    date: new Date().toISOString(),
    machine: { cpus: cpu.length, model: cpu[0]?.model.trim() ?? '', node: process.version, chromium: chromiumVersion, platform: `${process.platform} ${process.arch}` },
    short: args.short,
    seconds: Math.round((performance.now() - t0) / 100) / 10,
    sections,
    missed,
    failed,
  };
  mkdirSync(args.out, { recursive: true });
  const md = markdown(results);
  writeFileSync(join(args.out, 'results.json'), JSON.stringify(results, null, 2) + '\n');
  writeFileSync(join(args.out, 'results.md'), md);
  process.stdout.write(`\n${md}`);
  if (missed.length) console.log(`\nmissed ${missed.length} target(s):\n  ${missed.join('\n  ')}`);
  if (failed.length) console.log(`\ncould not measure:\n  ${failed.join('\n  ')}`);
  console.log(`\nwrote ${join(args.out, 'results.json')} and results.md`);
  return failed.length ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.dirname, 'run.ts')) {
  main().then(
    (code) => process.exit(code),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
