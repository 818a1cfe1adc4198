// The browser suites against one terminal: Playwright with TERMINAL_URL set,
// its JUnit and HTML reports in the terminal's report folder, and a blob report
// (blob/<terminal>.zip) that hil/merge.ts merges with other terminals' blobs.
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TerminalTarget, TestSummary } from './result.ts';
import { readJunit } from './report.ts';
import { PLAYWRIGHT_CLI } from './browser.ts';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** The blob report's file name for a terminal: its name, made safe for a file name, .zip. */
export const blobName = (terminal: string) => `${terminal.replace(/[^\w.-]/g, '_')}.zip`;

/** Runs the suites; an aborted `signal` (a signal to the harness) stops Playwright, whose reports then hold the tests that ran. */
export function runSuites(target: TerminalTarget, dir: string, extra: string[], log: (l: string) => void, signal?: AbortSignal): Promise<TestSummary> {
  const env = {
    ...process.env,
    TERMINAL_URL: target.url,
    BRAND: target.brand,
    GOFORM_CONFORMANCE_FILE: join(dir, 'replies.jsonl'),
    PLAYWRIGHT_JUNIT_OUTPUT_FILE: join(dir, 'playwright-junit.xml'),
    PLAYWRIGHT_HTML_OUTPUT_DIR: join(dir, 'playwright'),
    PLAYWRIGHT_HTML_OPEN: 'never',
    // The project is named after the terminal (playwright.config.ts), so a merged
    // report keeps terminals apart; the blob is named after it too, so blobs from
    // many runners can share one folder.
    HIL_TERMINAL: target.name,
    PLAYWRIGHT_BLOB_OUTPUT_DIR: join(dir, 'blob'),
    PLAYWRIGHT_BLOB_OUTPUT_NAME: blobName(target.name),
  };
  const args = ['test', '-c', 'tests/browser/playwright.config.ts', '--reporter=list,junit,html,blob', '--output', join(dir, 'test-results'), ...extra];
  log(`suites: playwright ${args.join(' ')} (TERMINAL_URL=${target.url})`);
  return new Promise((resolvePromise, reject) => {
    const child = spawn(PLAYWRIGHT_CLI, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    // Playwright ends its run on SIGINT and still writes its reports.
    const stop = () => child.kill('SIGINT');
    signal?.addEventListener('abort', stop, { once: true });
    child.on('close', () => signal?.removeEventListener('abort', stop));
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

