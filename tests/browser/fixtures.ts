// Test fixtures: each test gets its own simulated terminal (fresh store,
// chosen device profile) serving the built console, and an axe-core check.
import { test as base, expect, type Page } from 'playwright/test';
import { appendFileSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startSimulator, type Simulator } from '../../hil/simulator/server.ts';
import { loadProfile, type DeviceProfile } from '../../hil/simulator/profile.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const require = createRequire(import.meta.url);
export const BRAND = process.env.BRAND ?? 'ia';
/** The console administrator; a real terminal's may differ (CONSOLE_USER / CONSOLE_PASSWORD). */
export const ADMIN = { username: process.env.CONSOLE_USER ?? 'admin', password: process.env.CONSOLE_PASSWORD ?? '123456' };

export interface Terminal {
  url: string;
  /** The in-process simulator; undefined against real hardware. */
  sim?: Simulator;
  restart(): Promise<void>;
}

interface Options {
  profileName: string;
  profileOverrides: Partial<DeviceProfile>;
}

export const test = base.extend<Options & { terminal: Terminal; recordReplies: void }>({
  profileName: ['default', { option: true }],
  profileOverrides: [{}, { option: true }],
  terminal: async ({ profileName, profileOverrides }, use) => {
    if (process.env.TERMINAL_URL) {
      await use({ url: process.env.TERMINAL_URL, restart: async () => undefined });
      return;
    }
    const storeFile = join(mkdtempSync(join(tmpdir(), 'console-e2e-')), 'store.json');
    // SITE_DIR: a build elsewhere than dist/<brand> (parallel work on one checkout).
    const siteDir = process.env.SITE_DIR ?? join(ROOT, 'dist', BRAND);
    const profile = loadProfile(profileName, profileOverrides);
    let sim = await startSimulator({ siteDir, profile, storeFile });
    const terminal: Terminal = {
      url: sim.url,
      sim,
      async restart() {
        const port = Number(new URL(sim.url).port);
        await sim.close();
        sim = await startSimulator({ siteDir, profile, storeFile, port });
        terminal.sim = sim;
      },
    };
    await use(terminal);
    await sim.close();
  },
  baseURL: async ({ terminal }, use) => use(terminal.url),
  // For the harness's conformance report: every /goform/ reply the tests see.
  recordReplies: [
    async ({ page }, use) => {
      const file = process.env.GOFORM_CONFORMANCE_FILE;
      if (file) {
        page.on('response', async (res) => {
          const m = /\/goform\/([^/?#]+)/.exec(new URL(res.url()).pathname);
          if (!m) return;
          // A page that navigates away can drop a body before it is read: nothing to judge then.
          const body = await res.text().catch(() => null);
          if (body === null) return;
          appendFileSync(file, JSON.stringify({ call: m[1], status: res.status(), body }) + '\n');
        });
      }
      await use();
    },
    { auto: true },
  ],
});

/** Needs the in-process simulator (skipped against a real terminal). */
export const simulatorOnly = () => test.skip(!!process.env.TERMINAL_URL, 'needs the simulated terminal');

export async function signIn(page: Page, user = ADMIN.username, password = ADMIN.password): Promise<void> {
  await page.getByLabel('User name').fill(user);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Open the console signed in (via the login form) at `path`. */
export async function openSignedIn(page: Page, path = '/'): Promise<void> {
  await page.goto(path);
  await expect(page).toHaveURL(/\/login/);
  await signIn(page);
  await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeVisible();
}

interface AxeResult {
  violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
}

/** axe-core on the page as it is now: serious or critical violations fail the test. */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
  const result = (await page.evaluate(() => (window as unknown as { axe: { run: (o: object) => Promise<unknown> } }).axe.run({ resultTypes: ['violations'] }))) as AxeResult;
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${what}: ${v.id} (${v.impact}) ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

export { expect };
