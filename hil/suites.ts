// The browser suites against one terminal: Playwright with TERMINAL_URL set,
// its JUnit and HTML reports in the terminal's report folder.
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TerminalTarget } from './harness.ts';
import { readJunit, type TestSummary } from './report.ts';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

export function runSuites(target: TerminalTarget, dir: string, extra: string[], log: (l: string) => void): Promise<TestSummary> {
  const env = {
    ...process.env,
    TERMINAL_URL: target.url,
    BRAND: target.brand,
    GOFORM_CONFORMANCE_FILE: join(dir, 'replies.jsonl'),
    PLAYWRIGHT_JUNIT_OUTPUT_FILE: join(dir, 'playwright-junit.xml'),
    PLAYWRIGHT_HTML_OUTPUT_DIR: join(dir, 'playwright'),
    PLAYWRIGHT_HTML_OPEN: 'never',
  };
  const args = ['playwright', 'test', '-c', 'tests/browser/playwright.config.ts', '--reporter=list,junit,html', '--output', join(dir, 'test-results'), ...extra];
  log(`suites: npx ${args.join(' ')} (TERMINAL_URL=${target.url})`);
  return new Promise((resolvePromise, reject) => {
    const child = spawn('npx', args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c));
    child.stderr.on('data', (c: Buffer) => (out += c));
    child.on('error', reject);
    child.on('close', () => {
      writeFileSync(join(dir, 'playwright.log'), out);
      if (!existsSync(join(dir, 'playwright-junit.xml'))) return reject(new Error(`the browser suites wrote no report; see ${join(dir, 'playwright.log')}`));
      resolvePromise(readJunit(join(dir, 'playwright-junit.xml')));
    });
  });
}

