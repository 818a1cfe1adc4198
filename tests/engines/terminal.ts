// The terminal an engine's run talks to: a simulated one of its own, as
// tests/browser/fixtures.ts starts them (the built console of dist/<brand>, a
// store in a temporary folder), in its factory state so that the run begins
// with the activation step; or a real one at TERMINAL_URL, shared, already
// activated, where the run puts back what it changes. And the device's API as
// a script uses it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { CallName } from '../../contract/index.ts';
import { TEST_ADMIN } from '../../hil/admin.ts';
import { startSimulator } from '../../simulator/server.ts';
import { loadModel } from '../../simulator/model.ts';
import { callGoform, type Reply } from '../support/goform.ts';

const ROOT = resolve(import.meta.dirname, '../..');
export const BRAND = process.env.BRAND ?? 'ia';
export const ON_TERMINAL = !!process.env.TERMINAL_URL;

export interface Terminal {
  url: string;
  /** In its factory state: the administrator has not chosen a password yet (the simulated terminal only). */
  factory: boolean;
  close(): Promise<void>;
}

export async function startTerminal(): Promise<Terminal> {
  if (process.env.TERMINAL_URL) return { url: process.env.TERMINAL_URL.replace(/\/+$/, ''), factory: false, close: async () => undefined };
  const dir = mkdtempSync(join(tmpdir(), 'console-engines-'));
  const sim = await startSimulator({
    siteDir: process.env.SITE_DIR ?? join(ROOT, 'dist', BRAND),
    model: loadModel('default'),
    storeFile: join(dir, 'store.json'),
    host: '127.0.0.1',
  });
  return {
    url: sim.url,
    factory: true,
    async close() {
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The factory credential of a new terminal (the simulated one's profile says it). */
export const FACTORY = loadModel('default').admin;

/** The device's API, signed in as the administrator; `read` fails unless the call succeeds. */
export async function deviceApi(url: string) {
  const login = await callGoform(url, 'chklogin', '', { username: TEST_ADMIN.username, password: TEST_ADMIN.password });
  if (login.retvalue !== 0) throw new Error(`the terminal refused the administrator's sign-in: ${JSON.stringify(login)}`);
  const token = String(login.token);
  const call = (name: CallName, body: Reply = {}) => callGoform(url, name, token, body);
  return {
    call,
    async read(name: CallName, body: Reply = {}): Promise<Reply> {
      const r = await call(name, body);
      if (r.retvalue !== 0) throw new Error(`${name} answered ${JSON.stringify(r)}`);
      return r;
    },
  };
}

/** Whether `token` still opens the API (0) or is refused (10002 once the session has ended). */
export async function tokenAnswers(url: string, token: string): Promise<unknown> {
  return (await callGoform(url, 'GetDeviceFunList', token)).retvalue;
}
