// Test fixtures: each test gets its own simulated terminal (fresh store,
// chosen device profile) serving the built console, and an axe-core check.
import { test as base, expect, type Page } from 'playwright/test';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startSimulator, type Simulator } from '../../hil/simulator/server.ts';
import { loadProfile, type DeviceProfile } from '../../hil/simulator/profile.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const require = createRequire(import.meta.url);
export const BRAND = process.env.BRAND ?? 'ia';
export const ADMIN = { username: 'admin', password: '123456' };

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

export const test = base.extend<Options & { terminal: Terminal }>({
  profileName: ['default', { option: true }],
  profileOverrides: [{}, { option: true }],
  terminal: async ({ profileName, profileOverrides }, use) => {
    if (process.env.TERMINAL_URL) {
      await use({ url: process.env.TERMINAL_URL, restart: async () => undefined });
      return;
    }
    const storeFile = join(mkdtempSync(join(tmpdir(), 'console-e2e-')), 'store.json');
    const siteDir = join(ROOT, 'dist', BRAND);
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
