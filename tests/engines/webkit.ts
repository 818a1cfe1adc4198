// WebKitGTK, Safari's engine, as Debian ships it: WebKitWebDriver
// (webkit2gtk-driver, W3C WebDriver classic) driving MiniBrowser, through our
// own client (webdriver.ts). MiniBrowser of WebKitGTK 2.50 has no headless
// mode and needs an X display, so each run starts its own Xvfb (xvfb), also
// where a desktop is at hand, so that no window opens on it. A fresh profile:
// an automation session keeps no data (WebKit makes it ephemeral), and HOME
// and the XDG folders point into a temporary folder removed at the end.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VIEWPORT } from '../../hil/browser.ts';
import type { Engine } from './driver.ts';
import { ready, WebDriverSession } from './webdriver.ts';
import { freePort } from '../../board/qemu.ts';

export const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER ?? '/usr/bin/WebKitWebDriver';
export const XVFB = '/usr/bin/Xvfb';

/** MiniBrowser of libwebkit2gtk-4.1 (its folder is under the machine's multiarch triplet), or MINIBROWSER. */
export function miniBrowser(): string {
  if (process.env.MINIBROWSER) return process.env.MINIBROWSER;
  for (const dir of readdirSync('/usr/lib')) {
    const p = join('/usr/lib', dir, 'webkit2gtk-4.1/MiniBrowser');
    if (existsSync(p)) return p;
  }
  return '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
}


/**
 * A process in a group of its own, so that ending it ends what it started
 * (WebKitWebDriver starts MiniBrowser, which starts WebKit's web and network
 * processes), also when this process exits without closing it.
 */
function group(cmd: string, args: string[], env: NodeJS.ProcessEnv, stdio: ('ignore' | 'pipe')[]): ChildProcess & { end(): Promise<void> } {
  const child = spawn(cmd, args, { env, stdio, detached: true });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const kill = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  };
  const onExit = () => kill('SIGKILL');
  process.once('exit', onExit);
  return Object.assign(child, {
    async end() {
      process.off('exit', onExit);
      kill('SIGTERM');
      const late = setTimeout(() => kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(late);
      // What the group leader left behind (a web process between its parent's exit and its own).
      kill('SIGKILL');
    },
  });
}

/** Xvfb on the first free display (-displayfd says which). */
async function startXvfb(): Promise<{ display: string; end(): Promise<void> }> {
  const x = group(XVFB, ['-displayfd', '3', '-screen', '0', `${VIEWPORT.width + 320}x${VIEWPORT.height + 400}x24`, '-nolisten', 'tcp'], process.env, ['ignore', 'ignore', 'pipe', 'pipe']);
  let err = '';
  x.stderr!.on('data', (b) => (err += b));
  const display = await new Promise<string>((resolve, reject) => {
    x.stdio[3]!.once('data', (d) => resolve(`:${String(d).trim()}`));
    x.once('exit', (code) => reject(new Error(`Xvfb exited (${code}): ${err.trim()}`)));
  });
  return { display, end: () => x.end() };
}

export async function launchWebKit(): Promise<Engine> {
  const home = mkdtempSync(join(tmpdir(), 'console-webkit-'));
  const ended: (() => Promise<void>)[] = [async () => rmSync(home, { recursive: true, force: true })];
  const end = async () => {
    for (const e of ended.splice(0).reverse()) await e();
  };
  try {
    const xvfb = await startXvfb();
    ended.push(xvfb.end);
    const port = await freePort();
    const env = {
      ...process.env,
      DISPLAY: xvfb.display,
      WAYLAND_DISPLAY: '',
      HOME: home,
      XDG_CONFIG_HOME: join(home, 'config'),
      XDG_CACHE_HOME: join(home, 'cache'),
      XDG_DATA_HOME: join(home, 'data'),
      // No GPU under Xvfb: WebKit draws in software without trying one first.
      WEBKIT_DISABLE_COMPOSITING_MODE: '1',
      LIBGL_ALWAYS_SOFTWARE: '1',
    };
    const driver = group(WEBKIT_DRIVER, [`--port=${port}`, '--host=local'], env, ['ignore', 'pipe', 'pipe']);
    ended.push(driver.end);
    let said = '';
    driver.stdout!.on('data', (b) => (said += b));
    driver.stderr!.on('data', (b) => (said += b));
    const base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 20_000;
    while (!(await ready(base))) {
      if (driver.exitCode !== null || Date.now() > deadline) throw new Error(`WebKitWebDriver did not start: ${said.trim()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const session = await WebDriverSession.start(base, {
      'webkitgtk:browserOptions': { binary: miniBrowser(), args: ['--automation'] },
      pageLoadStrategy: 'normal',
      timeouts: { script: 30_000, pageLoad: 30_000, implicit: 0 },
    });
    ended.push(() => session.end().catch(() => undefined));
    await session.setWindowSize(VIEWPORT.width, VIEWPORT.height);
    // The window's size includes MiniBrowser's toolbar: the page gets the full width, less height.
    return {
      name: `WebKitGTK ${session.capabilities.browserVersion}`,
      goto: (url) => session.navigate(url),
      reload: () => session.refresh(),
      evaluate: (expression) => session.evaluate(expression),
      async type(expression, text) {
        const el = await session.element(expression);
        await session.clear(el);
        await session.sendKeys(el, text);
      },
      async click(expression) {
        await session.click(await session.element(expression));
      },
      screenshot: () => session.screenshot(),
      // WebDriver classic has no log, and WebKit keeps an automation session's console to itself:
      // the page's recorder (driver.ts) is what sees errors here.
      engineErrors: () => [],
      close: end,
    };
  } catch (e) {
    await end();
    throw e;
  }
}
