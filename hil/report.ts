// The per-terminal report in hil-report/<terminal>/: report.html (steps,
// transfer figures, served-file check, test results with failure screenshots,
// /goform/ conformance), report.json, and junit.xml (the harness steps plus
// the browser suites) for CI.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { transferText, type TerminalResult, type TestCase, type TestSummary } from './result.ts';

const unescape = (s: string) => s.replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n))).replace(/&amp;/g, '&');

/**
 * Counts and every test case from a Playwright JUnit file. Playwright writes
 * a skip reason as <property name="skip" value="..."> in the test case.
 */
export function readJunit(file: string): TestSummary {
  const xml = readFileSync(file, 'utf8');
  const attr = (name: string) => Number(new RegExp(`<testsuites\\b[^>]*\\s${name}="(\\d+)"`).exec(xml)?.[1] ?? 0);
  const cases: TestCase[] = [...xml.matchAll(/<testcase\s([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g)].map((m) => {
    const a = (n: string) => unescape(new RegExp(`\\b${n}="([^"]*)"`).exec(m[1])?.[1] ?? '');
    const body = m[3] ?? '';
    const failure = /<(failure|error)\b([^>]*)/.exec(body);
    const skipped = /<skipped\b/.test(body);
    const skipWhy = /<property name="skip" value="([^"]*)"/.exec(body)?.[1];
    return {
      file: a('classname'),
      title: a('name'),
      status: failure ? 'failed' : skipped ? 'skipped' : 'passed',
      reason: failure ? unescape(/message="([^"]*)"/.exec(failure[2])?.[1] ?? '') : skipped ? unescape(skipWhy ?? '') : '',
    };
  });
  const failed = cases.filter((c) => c.status === 'failed').map((c) => c.title);
  return { tests: attr('tests'), failures: attr('failures') + attr('errors'), skipped: attr('skipped'), failed, cases };
}


const esc = (s: unknown) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function junit(r: TerminalResult): string {
  const cases = r.steps
    .map((s) => `    <testcase classname="hil.${esc(r.target.name)}" name="${esc(s.name)}" time="${(s.ms / 1000).toFixed(3)}">${s.ok ? '' : `<failure message="${esc(s.detail)}"/>`}</testcase>`)
    .join('\n');
  const failures = r.steps.filter((s) => !s.ok).length;
  const own = `  <testsuite name="hil ${esc(r.target.name)}: ${r.mode === 'rollback' ? 'rollback' : 'flash and verify'}" tests="${r.steps.length}" failures="${failures}" errors="0" skipped="0">\n${cases}\n  </testsuite>`;
  const pwFile = join(r.reportDir, 'playwright-junit.xml');
  // <testsuite followed by a space or '>', not <testsuites: the browser suites' own wrapper is left out.
  const pw = existsSync(pwFile) ? [...readFileSync(pwFile, 'utf8').matchAll(/<testsuite[\s>][\s\S]*?<\/testsuite>/g)].map((m) => m[0]).join('\n') : '';
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="hil ${esc(r.target.name)}">\n${own}\n${pw}\n</testsuites>\n`;
}

function html(r: TerminalResult, shots: string[]): string {
  const t = r.target;
  const rows = r.steps.map((s) => `<tr class="${s.ok ? 'ok' : 'bad'}"><td>${esc(s.name)}</td><td>${s.ok ? 'ok' : 'FAILED'}</td><td>${(s.ms / 1000).toFixed(1)} s</td><td>${esc(s.detail)}</td></tr>`).join('');
  const conf = r.conformance.length
    ? `<table><tr><th>call</th><th>replies</th><th>matched</th><th>problems</th></tr>${r.conformance
        .map((c) => `<tr class="${c.ok === c.seen ? 'ok' : 'bad'}"><td>${esc(c.call)}</td><td>${c.seen}</td><td>${c.ok}</td><td>${esc(c.problems.join('; '))}</td></tr>`)
        .join('')}</table>`
    : '<p>No /goform/ replies were recorded (the browser suites did not run).</p>';
  const word = { passed: 'ran on the device: passed', failed: 'ran on the device: FAILED', skipped: 'skipped' };
  const tests = r.tests
    ? `<p>${r.tests.tests} tests: ${r.tests.tests - r.tests.failures - r.tests.skipped} passed, ${r.tests.failures} failed, ${r.tests.skipped} skipped on this terminal. Full Playwright report: <a href="playwright/index.html">playwright/index.html</a>.</p>
<table><tr><th>file</th><th>test</th><th>result</th><th>why</th></tr>${r.tests.cases
        .map((c) => `<tr class="${c.status === 'failed' ? 'bad' : c.status}"><td>${esc(c.file)}</td><td>${esc(c.title)}</td><td>${word[c.status]}</td><td>${esc(c.reason)}</td></tr>`)
        .join('')}</table>`
    : '<p>The browser suites did not run.</p>';
  const pics = shots.map((s) => `<figure><img src="${esc(s)}" alt="screenshot of a failure"><figcaption>${esc(s)}</figcaption></figure>`).join('');
  const files = r.files.length ? `<p>${r.files.filter((f) => f.ok).length} of ${r.files.length} files served exactly as in the manifest.</p>` : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>HIL ${esc(t.name)}${r.mode === 'rollback' ? ' rollback' : ''}: ${r.ok ? 'passed' : 'FAILED'}</title>
<style>body{font:14px/1.5 system-ui,sans-serif;margin:2rem;color:#1c2330}table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #ccd;padding:.3rem .6rem;text-align:left;vertical-align:top}tr.bad td{background:#fde8e8}tr.skipped td{color:#5b6475}tr.ok td:nth-child(2){color:#1a7f37}img{max-width:640px;border:1px solid #ccd}h1 span{color:${r.ok ? '#1a7f37' : '#b42318'}}</style></head><body>
<h1>${esc(t.name)}${r.mode === 'rollback' ? ' (rollback)' : ''}: <span>${r.ok ? 'passed' : 'FAILED'}</span></h1>
<p>Serial ${esc(t.serial)}${t.serial.startsWith('tcp://') ? '' : ` at ${t.baud} baud`}, web ${esc(t.url)}, brand ${esc(t.brand)}, profile ${esc(t.profile)}.</p>
${r.image ? `<p>Image ${esc(r.image.name)}: ${r.image.bytes} bytes, SHA-256 <code>${esc(r.image.sha256)}</code>, release ${esc(r.image.release)}.</p>` : ''}
${r.interrupted ? `<p><strong>Interrupted by ${esc(r.interrupted.signal)} during "${esc(r.interrupted.step)}".</strong> The transfer was cancelled and the console left at its prompt; nothing after that step ran.</p>` : ''}
${r.transfer ? `<p>Transfer: ${esc(transferText(r.transfer, t.baud))}.</p>` : ''}
${r.releases ? `<p>Releases: ${esc(r.releases.live)} is live${r.releases.previous ? `, ${esc(r.releases.previous)} is the one <code>--rollback</code> goes back to` : ''}${r.releases.removed.length ? `; removed ${esc(r.releases.removed.join(', '))}` : ''}.</p>` : ''}
<h2>Steps</h2><table><tr><th>step</th><th>result</th><th>time</th><th>detail</th></tr>${rows}</table>
${files}
<h2>Browser suites</h2>${tests}${pics ? `<h2>Failure screenshots</h2>${pics}` : ''}
<h2>/goform/ conformance</h2><p>Each reply the browser suites received, checked against the contract (docs/API.md).</p>${conf}
</body></html>
`;
}

export function writeReport(r: TerminalResult, shots: string[]): void {
  writeFileSync(join(r.reportDir, 'report.html'), html(r, shots));
  writeFileSync(join(r.reportDir, 'junit.xml'), junit(r));
  const { reportDir, ...rest } = r;
  void reportDir;
  writeFileSync(join(r.reportDir, 'report.json'), JSON.stringify({ ...rest, screenshots: shots }, null, 2) + '\n');
}
