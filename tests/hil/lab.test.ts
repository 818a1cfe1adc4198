// A lab of many terminals as CI runs it: two matrix jobs, each `npm run hil`
// with --shard I/2 --split-suites over one inventory of simulated terminals,
// so each flashes its terminal and runs half of the browser suite there
// through the device's API (this is the test that the suite runs on a
// device, with at most 10 % skipped: the whole suite with npm run test:hil,
// a representative part in npm test, HIL_LAB_GREP), each leaving a blob report; their blobs gathered into one folder and merged with
// `npm run hil:merge` (playwright merge-reports) into one HTML report and one
// JUnit file whose counts add up per terminal. And the example workflow in
// docs/hil-lab-workflow.yml is valid YAML with the structure the docs describe.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findBlobs } from '../../hil/merge.ts';
import { PLAYWRIGHT_CLI } from '../../hil/browser.ts';

const ROOT = join(import.meta.dirname, '../..');
const TERMINALS = ['lab-a', 'lab-b'];
/**
 * HIL_LAB_GREP: the part of the browser suite the lab runs. npm test runs a
 * representative part (tests/run.sh: thirteen tests, among them sign-in, one
 * screen of each menu group, a form kept across a restart, and @lab, one that
 * skips on a device and says why: one skip in ten tests at least);
 * unset (npm run test:hil), the whole suite.
 */
const GREP = process.env.HIL_LAB_GREP || '';
const grepArgs = GREP ? ['--grep', GREP] : [];

function run(args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    child.on('close', (code) => resolve({ code: code ?? -1, out }));
  });
}

interface Suite {
  hostname: string;
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
  cases: string[];
}
interface Junit {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
  suites: Suite[];
}

/** A JUnit file read with a real XML parser (Python's xml.dom.minidom, expat underneath). */
function parseJunit(file: string): Junit {
  const py = `
import json, sys
from xml.dom import minidom
doc = minidom.parse(sys.argv[1])
root = doc.documentElement
n = lambda e, a: int(float(e.getAttribute(a) or 0))
suites = [{
  "hostname": s.getAttribute("hostname"),
  "tests": n(s, "tests"), "failures": n(s, "failures"), "errors": n(s, "errors"), "skipped": n(s, "skipped"),
  "cases": [c.getAttribute("name") for c in s.getElementsByTagName("testcase")],
} for s in root.getElementsByTagName("testsuite")]
json.dump({"root": root.tagName, "tests": n(root, "tests"), "failures": n(root, "failures"), "errors": n(root, "errors"), "skipped": n(root, "skipped"), "suites": suites}, sys.stdout)
`;
  const parsed = JSON.parse(execFileSync('python3', ['-c', py, file], { encoding: 'utf8' })) as Junit & { root: string };
  assert.is(parsed.root, 'testsuites', `${file}: a <testsuites> document`);
  return parsed;
}

const sum = (suites: Suite[], k: 'tests' | 'failures' | 'errors' | 'skipped') => suites.reduce((t, s) => t + s[k], 0);

/** Every browser test's title as the JUnit report writes it, from Playwright's own list. */
function suiteTitles(): string[] {
  const out = execFileSync(PLAYWRIGHT_CLI, ['test', '-c', 'tests/browser/playwright.config.ts', '--list', '--reporter=json', ...grepArgs], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
  type S = { title: string; specs?: { title: string }[]; suites?: S[] };
  const titles: string[] = [];
  const walk = (s: S, path: string[]) => {
    for (const sp of s.specs ?? []) titles.push([...path, sp.title].join(' \u203a '));
    for (const c of s.suites ?? []) walk(c, [...path, c.title]);
  };
  for (const file of (JSON.parse(out) as { suites: S[] }).suites) walk({ ...file, title: '' }, []);
  return titles.sort();
}

test(`two CI shards of a lab run ${GREP ? `the browser tests matching ${GREP}` : 'the whole browser suite'} between their terminals, on the device; the blobs merged: one HTML report, one JUnit, counts per terminal, at most 10 % skipped`, async () => {
  const all = suiteTitles();
  if (GREP) console.log(`lab: ${all.length} browser tests matching ${GREP} (the whole suite with npm run test:hil)`);
  const dir = mkdtempSync(join(tmpdir(), 'hil-lab-'));
  const inv = join(dir, 'terminals.json');
  writeFileSync(inv, JSON.stringify({ terminals: TERMINALS.map((name) => ({ name, simulate: true })) }));
  // Each job flashes its terminal over a pty and runs its half of the suite there (Playwright's --shard k/2).
  const shard = (i: number, report: string) => run(['hil/cli.ts', '--inventory', inv, '--split-suites', '--shard', `${i}/2`, '--report', report, ...grepArgs]);

  // What two matrix jobs run, side by side (each drives one terminal with one browser).
  const reports = [join(dir, 'shard-1'), join(dir, 'shard-2')];
  const shards = await Promise.all(reports.map((r, i) => shard(i + 1, r)));
  shards.forEach((s, i) => {
    const json = join(reports[i], TERMINALS[i], 'report.json');
    const why = existsSync(json) ? JSON.stringify((JSON.parse(readFileSync(json, 'utf8')) as { steps: unknown[] }).steps.at(-1)) : '';
    assert.is(s.code, 0, `shard ${i + 1}: ${why}\n${s.out.slice(-3000)}`);
  });

  // Each shard ran its own terminal, with its own counts and its own blob.
  const own = TERMINALS.map((name, i) => {
    assert.equal(readdirSync(reports[i]), [name], `shard ${i + 1} ran ${name} only`);
    const t = join(reports[i], name);
    const r = JSON.parse(readFileSync(join(t, 'report.json'), 'utf8'));
    assert.ok(r.ok, `${name}: ${JSON.stringify(r.steps)}`);
    const pw = parseJunit(join(t, 'playwright-junit.xml'));
    assert.is(pw.tests, r.tests.tests, `${name}: report.json and playwright-junit.xml agree`);
    // Its share (Playwright's --shard splits by file and group, not exactly in half); between them, every test below.
    assert.ok(pw.tests > 0 && pw.failures + pw.errors === 0, `${name}: its share of the suite passed (${pw.tests} of ${all.length} tests)`);
    // A test skipped on the device says why (report.html and report.json list each test).
    for (const c of r.tests.cases) if (c.status === 'skipped') assert.ok(c.reason.length > 10, `${c.title}: skipped without a reason`);
    assert.ok(pw.suites.every((s) => s.hostname === name), `${name}: the Playwright project is named after the terminal`);
    assert.equal(readdirSync(join(t, 'blob')), [`${name}.zip`]);
    return { name, blob: join(t, 'blob', `${name}.zip`), junit: pw };
  });

  // The merge job: every shard's blob in one folder (download-artifact with merge-multiple).
  const blobs = join(dir, 'blobs');
  mkdirSync(blobs);
  for (const o of own) copyFileSync(o.blob, join(blobs, `${o.name}.zip`));
  const out = join(dir, 'merged');
  const merge = await run(['hil/merge.ts', blobs, '--out', out]);
  assert.is(merge.code, 0, merge.out);
  assert.equal(readdirSync(blobs).sort(), TERMINALS.map((t) => `${t}.zip`), 'the merge leaves the blob folder as it was');
  assert.ok(existsSync(join(out, 'html', 'index.html')), 'merged HTML report');

  const merged = parseJunit(join(out, 'junit.xml'));
  assert.is(merged.tests, own[0].junit.tests + own[1].junit.tests, 'merged tests = shard 1 + shard 2');
  assert.is(merged.failures + merged.errors, 0);
  assert.is(merged.skipped, own[0].junit.skipped + own[1].junit.skipped);
  assert.equal([...new Set(merged.suites.map((s) => s.hostname))].sort(), TERMINALS, 'both terminals appear');
  for (const o of own) {
    const mine = merged.suites.filter((s) => s.hostname === o.name);
    assert.is(sum(mine, 'tests'), o.junit.tests, `${o.name}: same number of tests as its shard's own report`);
    assert.is(sum(mine, 'skipped'), o.junit.skipped, `${o.name}: same skipped`);
    assert.is(sum(mine, 'failures') + sum(mine, 'errors'), 0);
    // Same titles on both terminals, kept apart by the [terminal] prefix.
    const titles = o.junit.suites.flatMap((s) => s.cases).sort();
    assert.equal(mine.flatMap((s) => s.cases).sort(), titles.map((c) => `[${o.name}] ${c}`).sort());
  }
  // Between them the two terminals ran the whole suite, each test once.
  const ran = own.flatMap((o) => o.junit.suites.flatMap((s) => s.cases));
  assert.equal(ran.sort(), all, 'the shards split the suite: every test once');
  console.log(`lab: ${merged.skipped} of ${merged.tests} skipped on the device (at most 10 %)`);
  assert.ok(merged.skipped <= merged.tests / 10, `${merged.skipped} of ${merged.tests} skipped on the device: at most 10 %`);
  for (const t of TERMINALS) assert.match(merge.out, new RegExp(`^${t}\\s+${merged.suites.filter((s) => s.hostname === t).reduce((n, s) => n + s.tests, 0)}\\s`, 'm'), `printed count for ${t}`);

  // A report folder (or a downloaded artifact: <terminal>/blob/*.zip) serves as a blob folder too.
  reports.forEach((r, i) => assert.equal(findBlobs(r), [own[i].blob]));
  rmSync(dir, { recursive: true, force: true }); // kept when a check failed, to look at
});

/** The workflow file as data: PyYAML when Python has it (Debian: python3-yaml), else js-yaml (installed for @lingui/cli's cosmiconfig). */
function loadYaml(file: string): Record<string, unknown> {
  try {
    return JSON.parse(
      execFileSync('python3', ['-c', 'import json, sys, yaml; json.dump(yaml.safe_load(open(sys.argv[1])), sys.stdout)', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }),
    );
  } catch (e) {
    if (!/No module named .?yaml/.test(String((e as { stderr?: string }).stderr))) throw e;
    const yaml = createRequire(join(ROOT, 'package.json'))('js-yaml') as { load(s: string): unknown };
    return yaml.load(readFileSync(file, 'utf8')) as Record<string, unknown>;
  }
}

test('docs/hil-lab-workflow.yml: valid YAML; shard matrix, blob uploads even on failure, a merge job that publishes JUnit', () => {
  type Step = { uses?: string; run?: string; if?: string; with?: Record<string, unknown> };
  type Job = { 'runs-on': unknown; needs?: string; if?: string; strategy?: { 'fail-fast'?: boolean; matrix: { shard: number[] } }; steps: Step[] };
  const wf = loadYaml(join(ROOT, 'docs/hil-lab-workflow.yml')) as { jobs: Record<string, Job> } & Record<string, unknown>;
  // YAML 1.1 (PyYAML) reads the key `on` as true; GitHub and YAML 1.2 read it as "on".
  assert.ok(wf.on ?? wf.true, 'has triggers');
  const { hil, merge } = wf.jobs;
  assert.ok(hil && merge, 'jobs hil and merge');

  assert.equal(hil.strategy!.matrix.shard, [1, 2, 3]);
  assert.is(hil.strategy!['fail-fast'], false);
  assert.ok(Array.isArray(hil['runs-on']) && (hil['runs-on'] as string[]).includes('self-hosted'));
  const uses = (j: Job, a: string) => j.steps.filter((s) => s.uses?.startsWith(a + '@'));
  assert.ok(uses(hil, 'actions/checkout').length && uses(hil, 'actions/setup-node')[0]?.with?.['node-version'] === 20);
  assert.ok(hil.steps.some((s) => s.run === 'npm ci'));
  const cmd = hil.steps.find((s) => s.run?.startsWith('npm run hil '))?.run ?? '';
  assert.match(cmd, /--inventory lab\/terminals\.json --shard \$\{\{ matrix\.shard \}\}\/\$\{\{ strategy\.job-total \}\} --report hil-report/);
  const uploads = uses(hil, 'actions/upload-artifact');
  assert.is(uploads.length, 2);
  for (const u of uploads) assert.match(String(u.if), /always\(\)|!cancelled\(\)/, 'uploaded even when the job failed');
  assert.ok(uploads.some((u) => u.with?.path === 'hil-report/*/blob/*.zip' && /\$\{\{ matrix\.shard \}\}/.test(String(u.with?.name))), 'blob zips, one artifact per shard');

  assert.is(merge.needs, 'hil');
  assert.match(String(merge.if), /always\(\)|!cancelled\(\)/);
  const down = uses(merge, 'actions/download-artifact')[0];
  assert.ok(down?.with?.['merge-multiple'] === true && down.with.path === 'blobs' && down.with.pattern === 'hil-blob-*');
  const mergeRun = merge.steps.find((s) => s.run?.includes('hil:merge'))?.run ?? '';
  assert.match(mergeRun, /hil:merge -- blobs --out hil-merged/);
  assert.is(uses(merge, 'actions/upload-artifact')[0]?.with?.path, 'hil-merged/');
  assert.is(uses(merge, 'mikepenz/action-junit-report')[0]?.with?.report_paths, 'hil-merged/junit.xml');
});

test.run();
