// The console's Content-Security-Policy (issue 13 §2): it works under its
// own policy (no violation signing in, on a screen of each menu group, with
// a photo shown through an object URL and a download), an injected inline
// script, event handler, style element or style attribute is blocked and
// reported, index.html carries the policy as its first <head> element with
// the hashes of its own inline script and style, and the server sends it as
// a header with frame-ancestors and X-Frame-Options (the simulator and the
// real servers of tests/servers; build/serving.ts writes the policy).
import type { Page } from 'playwright/test';
import { createHash } from 'node:crypto';
import { test, expect, openSignedIn } from './fixtures.ts';

interface Violation {
  effectiveDirective: string;
  violatedDirective: string;
  blockedURI: string;
  sample: string;
}

/**
 * Every CSP violation the page reports from now on, across navigations: the
 * securitypolicyviolation events (listened for on document before any page
 * script runs) and the browser's console messages about the policy.
 */
async function watchViolations(page: Page): Promise<{ events: Violation[]; console: string[] }> {
  const seen = { events: [] as Violation[], console: [] as string[] };
  await page.exposeFunction('__cspViolation', (v: Violation) => void seen.events.push(v));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = (window as unknown as { __cspViolation: (v: object) => void }).__cspViolation;
      report({ effectiveDirective: e.effectiveDirective, violatedDirective: e.violatedDirective, blockedURI: e.blockedURI, sample: e.sample });
    });
  });
  page.on('console', (m) => {
    if (/Content.Security.Policy/i.test(m.text())) seen.console.push(m.text());
  });
  return seen;
}

const menu = (page: Page) => page.getByRole('navigation', { name: 'Main menu' });

/** Opens a screen from the sidebar (the same document: the watch sees every screen). */
async function open(page: Page, group: string, link: string, url: RegExp): Promise<void> {
  const entry = menu(page).getByRole('link', { name: link, exact: true });
  if (!(await entry.isVisible())) await menu(page).getByRole('button', { name: group }).click();
  await entry.click();
  await expect(page).toHaveURL(url);
  await expect(page).toHaveTitle(new RegExp(link));
  // The screen has loaded (each has a button: save, search, download).
  await expect(page.getByRole('main').getByRole('button').first()).toBeVisible();
}

test('the console works under its policy: sign-in, a screen of each menu group, a photo, a download, no violation', { tag: '@smoke' }, async ({ page }) => {
  test.setTimeout(60_000);
  const seen = await watchViolations(page);
  await openSignedIn(page);
  await open(page, 'Network', 'Bluetooth', /\/network\/bluetooth$/);
  // Preact writes style={{ marginTop }} through the CSSOM (element.style), which the policy allows.
  const panel = page.locator('section.panel[style]').first();
  await expect(panel).toBeVisible();
  expect(await panel.evaluate((e: HTMLElement) => [e.style.marginTop, getComputedStyle(e).marginTop === getComputedStyle(document.documentElement).fontSize])).toEqual(['1rem', true]);
  await open(page, 'Basic setup', 'Authorization mode', /\/basicSetting\/authorizationMode$/);
  await open(page, 'Access control', 'Time groups', /\/AccSetting\/zoneSetting$/);
  await open(page, 'Users', 'User list', /\/user\/userList$/);
  await open(page, 'Advanced', 'Records', /\/advSetting\/recordList$/);
  // A download: the workbook is handed to the browser through an object URL. One user's records,
  // not every record: writing a workbook of 100,000 (the simulated terminal's seed) takes the
  // terminal seconds of its CPU, and a busy CI machine many more, while the policy is the same for
  // a small file (records.spec.ts downloads a search and reads it).
  const userIds = page.locator('table.grid tbody tr td:nth-child(2)');
  const userId = ((await userIds.first().textContent()) ?? '').trim();
  await page.getByLabel('User ID').fill(userId);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect.poll(async () => [...new Set((await userIds.allTextContents()).map((t) => t.trim()))]).toEqual([userId]);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download' }).click()]);
  expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
  // A device photo shown through an object URL (img-src blob:).
  await page.goto('/test');
  await page.getByRole('button', { name: 'Take photo' }).click();
  const img = page.getByRole('img', { name: 'Take photo' });
  await expect(img).toHaveAttribute('src', /^blob:/);
  expect(await img.evaluate((i: HTMLImageElement) => i.decode().then(() => i.naturalWidth))).toBeGreaterThan(0);
  expect(seen.events).toEqual([]);
  expect(seen.console).toEqual([]);
});

test('injected code is blocked and reported: an inline script, an event handler, a style element, a style attribute', { tag: '@smoke' }, async ({ page }) => {
  const seen = await watchViolations(page);
  await openSignedIn(page);
  const directives = () => seen.events.map((v) => v.effectiveDirective);

  await page.evaluate(() => {
    const s = document.createElement('script');
    s.textContent = 'window.__pwned = 1';
    document.body.appendChild(s);
  });
  await expect.poll(directives).toContain('script-src-elem');
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  const script = seen.events.find((v) => v.effectiveDirective === 'script-src-elem')!;
  expect(script.violatedDirective).toMatch(/^script-src(-elem)?$/);
  expect(script.blockedURI).toBe('inline');

  // The classic injection through markup: an image whose error handler runs code.
  await page.evaluate(() => {
    const d = document.createElement('div');
    d.innerHTML = '<img src="/no-such-image.png" alt="" onerror="window.__pwned2 = 1">';
    document.body.appendChild(d);
  });
  await expect.poll(directives).toContain('script-src-attr');
  expect(await page.evaluate(() => (window as unknown as { __pwned2?: number }).__pwned2)).toBeUndefined();

  // Styles: an injected <style> and a style attribute in markup are refused; the CSSOM (what Preact and React use) is not.
  const probe = await page.evaluate(() => {
    const st = document.createElement('style');
    st.textContent = '#csp-probe-a { margin-left: 11px }';
    document.head.appendChild(st);
    const a = document.createElement('div');
    a.id = 'csp-probe-a';
    const b = document.createElement('div');
    b.setAttribute('style', 'margin-left: 13px');
    const c = document.createElement('div');
    c.style.marginLeft = '17px';
    document.body.append(a, b, c);
    const left = (e: Element) => getComputedStyle(e).marginLeft;
    return [left(a), left(b), left(c)];
  });
  expect(probe).toEqual(['0px', '0px', '17px']);
  await expect.poll(directives).toEqual(expect.arrayContaining(['style-src-elem', 'style-src-attr']));
  expect(seen.console.length).toBeGreaterThanOrEqual(4);
});

test('index.html carries the policy first in <head>, with the hashes of its own inline script and style', async ({ page, terminal }) => {
  for (const path of ['/', '/user/userList']) {
    const res = await page.request.get(terminal.url + path);
    expect(res.status()).toBe(200);
    const html = await res.text();
    const meta = /^<!doctype html><html[^>]*><head><meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html);
    expect(meta, `${path}: the policy is the first element of <head>`).not.toBeNull();
    const policy = meta![1];
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).not.toContain('unsafe-eval');
    expect(policy).not.toContain('frame-ancestors'); // ignored in a meta tag: the header carries it
    const directive = (name: string) => policy.split(';').find((d) => d.split(' ')[0] === name)?.split(' ').slice(1) ?? [];
    const hash = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
    // The script that starts the downloads and the entry module (issue 31: the login page in the document); JSON data runs nothing.
    const scripts = [...html.matchAll(/<script(?: type="module")?>([\s\S]*?)<\/script>/g)].map((m) => hash(m[1]));
    const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => hash(m[1]));
    expect(scripts).toHaveLength(2);
    expect(styles).toHaveLength(1);
    expect(directive('script-src')).toEqual(["'self'", ...scripts]);
    expect(directive('style-src')).toEqual(["'self'", ...styles]);
    expect(directive('default-src')).toEqual(["'self'"]);
    expect(directive('object-src')).toEqual(["'none'"]);
    expect(directive('base-uri')).toEqual(["'none'"]);
    expect(directive('form-action')).toEqual(["'self'"]);
    expect(directive('img-src')).toEqual(["'self'", 'blob:', 'data:']);
  }
});

test("the server sends the policy as a header, with frame-ancestors 'none' and X-Frame-Options DENY: no page may frame the console", async ({ page, terminal }) => {
  // The device's own web server sends them too (docs/EMBEDDING.md): checked on a terminal as on the simulator.
  for (const path of ['/', '/user/userList']) {
    const res = await page.request.get(terminal.url + path);
    const headers = res.headers();
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(await res.text())![1];
    expect(headers['content-security-policy'], path).toBe(`${meta};frame-ancestors 'none'`);
    expect(headers['x-frame-options'], path).toBe('DENY');
    expect(headers['x-content-type-options'], path).toBe('nosniff');
  }
  // A page elsewhere that frames the console gets nothing from it.
  await page.setContent(`<iframe title="framed" src="${terminal.url}/login"></iframe>`);
  const frame = page.frames().find((f) => f !== page.mainFrame())!;
  await expect.poll(() => frame.url()).not.toBe('about:blank');
  // Whatever the frame got has loaded (the browser's own error page): no console in it.
  await frame.waitForLoadState('load');
  await expect(frame.locator('#app')).toHaveCount(0);
});
