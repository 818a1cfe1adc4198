// `npm run hil:merge`: the browser-suite results of many terminals (many CI
// runners) in one HTML report and one JUnit file. Playwright does the merging
// (`playwright merge-reports` over the blob reports hil/suites.ts writes); this
// only gathers the blobs, runs it, and prints the counts per terminal.
//
//   npm run hil:merge -- hil-report                   # after a run: hil-report/<terminal>/blob/*.zip
//   npm run hil:merge -- blobs/ --out hil-merged      # blob zips downloaded from CI jobs
//
// The output folder gets html/index.html (Playwright's report, one project per
// terminal) and junit.xml (test names prefixed with [terminal]).
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readArgs } from '../build/args.ts';
import { PLAYWRIGHT_CLI } from './browser.ts';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const USAGE = 'usage: npm run hil:merge -- FOLDER... [--out hil-merged]\n  FOLDER: blob zips (*.zip), or a report folder holding <terminal>/blob/*.zip';

export interface TerminalCounts {
  terminal: string;
  tests: number;
  failures: number;
  skipped: number;
}

/** Blob zips in a folder, or in its <terminal>/blob/ folders (the layout of a hil report). */
export function findBlobs(folder: string): string[] {
  const zips = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.zip')).map((f) => join(dir, f)) : []);
  const top = zips(folder);
  if (top.length) return top;
  return readdirSync(folder, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => zips(join(folder, d.name, 'blob')));
}

/** Tests per terminal (the testsuite's hostname: Playwright writes the project name there) in a merged JUnit file. */
export function countsByTerminal(xml: string): TerminalCounts[] {
  const by = new Map<string, TerminalCounts>();
  for (const m of xml.matchAll(/<testsuite\s([^>]*)>/g)) {
    const attrs = Object.fromEntries([...m[1].matchAll(/([\w:-]+)="([^"]*)"/g)].map((a) => [a[1], a[2]]));
    const terminal = (attrs.hostname ?? '').replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
    const c = by.get(terminal) ?? { terminal, tests: 0, failures: 0, skipped: 0 };
    c.tests += Number(attrs.tests ?? 0);
    c.failures += Number(attrs.failures ?? 0) + Number(attrs.errors ?? 0);
    c.skipped += Number(attrs.skipped ?? 0);
    by.set(terminal, c);
  }
  return [...by.values()].sort((a, b) => a.terminal.localeCompare(b.terminal));
}

/** Merges the blob zips found in `folders` into `out`; resolves with the counts per terminal. */
export async function mergeBlobs(folders: string[], out: string, log: (l: string) => void = console.log): Promise<TerminalCounts[]> {
  const blobs = folders.flatMap((f) => {
    if (!existsSync(f) || !statSync(f).isDirectory()) throw new Error(`${f} is not a folder`);
    return findBlobs(f);
  });
  if (!blobs.length) throw new Error(`no blob reports (*.zip) in ${folders.join(', ')}\n${USAGE}`);
  // merge-reports reads one flat folder and unpacks into it: give it a copy.
  const stage = mkdtempSync(join(tmpdir(), 'hil-blobs-'));
  try {
    for (const b of blobs) {
      const to = join(stage, basename(b));
      if (existsSync(to)) throw new Error(`two blob reports are named ${basename(b)} (the same terminal twice?): ${blobs.filter((x) => basename(x) === basename(b)).join(', ')}`);
      copyFileSync(b, to);
    }
    mkdirSync(out, { recursive: true });
    rmSync(join(out, 'junit.xml'), { force: true });
    const env = {
      ...process.env,
      PLAYWRIGHT_HTML_OUTPUT_DIR: join(out, 'html'),
      PLAYWRIGHT_HTML_OPEN: 'never',
      PLAYWRIGHT_JUNIT_OUTPUT_FILE: join(out, 'junit.xml'),
      // The same test ran on every terminal: "[bench-a] sign in ..." keeps them apart in CI test views.
      PLAYWRIGHT_JUNIT_INCLUDE_PROJECT_IN_TEST_NAME: '1',
    };
    // -c: the repo's config gives the merge one test folder, so blobs recorded in
    // checkouts at different paths (different runners) still merge.
    const args = ['merge-reports', '-c', 'tests/browser/playwright.config.ts', '--reporter=html,junit', stage];
    log(`merge: playwright ${args.join(' ')} (${blobs.length} blob reports)`);
    const { code, output } = await new Promise<{ code: number; output: string }>((done, fail) => {
      const child = spawn(PLAYWRIGHT_CLI, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (c: Buffer) => (output += c));
      child.stderr.on('data', (c: Buffer) => (output += c));
      child.on('error', fail);
      child.on('close', (c) => done({ code: c ?? -1, output }));
    });
    const junit = join(out, 'junit.xml');
    if (code !== 0 || !existsSync(junit)) throw new Error(`playwright merge-reports failed (exit ${code}):\n${output.replace(/^npm warn.*\n/gm, '').trim()}`);
    return countsByTerminal(readFileSync(junit, 'utf8'));
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals: folders } = readArgs(argv, { out: { type: 'string' } }, USAGE, true);
  if (values.out === '') throw new Error(`--out needs a folder\n${USAGE}`);
  if (!folders.length) throw new Error(USAGE);
  const outDir = resolve(values.out ?? 'hil-merged');
  const counts = await mergeBlobs(folders.map((f) => resolve(f)), outDir);
  const total = counts.reduce((t, c) => ({ tests: t.tests + c.tests, failures: t.failures + c.failures, skipped: t.skipped + c.skipped }), { tests: 0, failures: 0, skipped: 0 });
  const line = (name: string, c: { tests: number; failures: number; skipped: number }) =>
    `${name.padEnd(21)} ${String(c.tests).padStart(5)} ${String(c.tests - c.failures - c.skipped).padStart(7)} ${String(c.failures).padStart(7)} ${String(c.skipped).padStart(8)}`;
  console.log(`\n${'terminal'.padEnd(21)} tests  passed  failed  skipped`);
  for (const c of counts) console.log(line(c.terminal || '(unnamed)', c));
  console.log(line('all', total));
  const rel = (p: string) => (relative(process.cwd(), p).startsWith('..') ? p : relative(process.cwd(), p));
  console.log(`\nHTML: ${rel(join(outDir, 'html', 'index.html'))}  JUnit: ${rel(join(outDir, 'junit.xml'))}`);
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      console.error(`hil:merge: ${(err as Error).message}`);
      process.exit(2);
    },
  );
}
