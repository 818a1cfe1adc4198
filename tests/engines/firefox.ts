// Firefox ESR, as Debian ships it (firefox-esr), driven over WebDriver BiDi by
// puppeteer-core: Playwright's Firefox needs a newer Firefox than the ESR
// (issue 34: its moz-firefox channel fails at newPage), and puppeteer-core
// speaks the BiDi the ESR has, needs no browser of its own (it never downloads
// one) and was already a dev package here (Lighthouse drives Chromium with
// it). A fresh profile in a temporary folder, removed at the end.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type ElementHandle } from 'puppeteer-core';
import { VIEWPORT } from '../../hil/browser.ts';
import { pageCall, recordErrors, type Engine } from './driver.ts';

export const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

export async function launchFirefox(): Promise<Engine> {
  const profile = mkdtempSync(join(tmpdir(), 'console-firefox-'));
  const removeProfile = () => rmSync(profile, { recursive: true, force: true });
  let browser;
  try {
    browser = await puppeteer.launch({
      browser: 'firefox',
      executablePath: FIREFOX,
      headless: true,
      userDataDir: profile,
      defaultViewport: VIEWPORT,
      // Closed by close() or, should this process end first, by puppeteer's own exit handler.
      handleSIGINT: true,
      handleSIGTERM: true,
    });
  } catch (e) {
    removeProfile();
    throw e;
  }
  const close = async () => {
    await browser.close().catch(() => undefined);
    removeProfile();
  };
  try {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(`uncaught: ${(e as Error).message ?? e}`));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`console error: ${m.text()}`);
    });
    // The recorder is in every page before its own scripts run (BiDi's preload script).
    await page.evaluateOnNewDocument(pageCall(recordErrors));
    const element = async (expression: string) => {
      const h = await page.evaluateHandle(expression);
      const el = h.asElement() as ElementHandle<HTMLInputElement> | null;
      if (!el) throw new Error(`no element: ${JSON.stringify(await h.jsonValue())}`);
      return el;
    };
    return {
      name: `Firefox ${(await browser.version()).replace(/^firefox\//i, '')}`,
      async goto(url) {
        await page.goto(url, { waitUntil: 'load' });
      },
      async reload() {
        await page.reload({ waitUntil: 'load' });
      },
      evaluate: (expression) => page.evaluate(expression),
      async type(expression, text) {
        const el = await element(expression);
        await el.focus();
        await el.evaluate((input) => input.select());
        await page.keyboard.press('Backspace');
        await el.type(text);
      },
      async click(expression) {
        await (await element(expression)).click();
      },
      screenshot: async () => Buffer.from(await page.screenshot()),
      engineErrors: () => errors,
      close,
    };
  } catch (e) {
    await close();
    throw e;
  }
}
