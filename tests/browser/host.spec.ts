// DNS rebinding (issue 23 §2): a page whose own name now points at the
// terminal gets nothing from it. A second Chromium, launched as the config
// launches it plus --host-resolver-rules, resolves rebind.test and
// console.test to the terminal's address: under rebind.test the terminal
// answers 421 and its short page (no console, and no API answer to the page's
// own call); once the administrator adds console.test (RestParam.HostNames,
// through the API) the console is served under it and signs in. On the
// simulator, through FRONT_SERVER (the server's access file follows the
// setting as firmware does) and on a terminal opened by its IP address.
import { chromium } from 'playwright/test';
import { isIP } from 'node:net';
import { HOST_REFUSED } from '../../build/serving.ts';
import { test, expect, ON_TERMINAL, deviceApi, keepSettings, signIn } from './fixtures.ts';

test('a foreign name gets 421 and no console; a name the administrator adds is served', { tag: '@smoke' }, async ({ terminal, request, launchOptions }) => {
  const at = new URL(terminal.url);
  test.skip(ON_TERMINAL && !isIP(at.hostname.replace(/^\[|\]$/g, '')), 'TERMINAL_URL names the terminal by a DNS name: open it by its IP address for this test, which maps two names of its own to that address');
  const address = at.hostname;
  const browser = await chromium.launch({ ...launchOptions, args: [...(launchOptions.args ?? []), `--host-resolver-rules=MAP rebind.test ${address}, MAP console.test ${address}`] });
  const kept = await keepSettings(request, terminal, 'RestParam');
  try {
    const page = await browser.newPage();
    const calls: string[] = [];
    page.on('request', (r) => void (new URL(r.url()).pathname.startsWith('/goform/') && calls.push(r.url())));
    const under = (name: string, path = '/') => `${at.protocol}//${name}${at.port ? `:${at.port}` : ''}${path}`;

    const refused = await page.goto(under('rebind.test', '/user/userList'));
    expect(refused!.status()).toBe(HOST_REFUSED.status);
    await expect(page.locator('body')).toHaveText(HOST_REFUSED.body.trim());
    await expect(page.getByLabel('User name')).toHaveCount(0);
    expect(calls, 'no console ran: it made no call').toEqual([]);
    // The rebound page calls the API itself, as an attacker's script would: refused before any answer.
    const call = await page.evaluate(async () => {
      const r = await fetch('/goform/chklogin', { method: 'POST', body: JSON.stringify({ username: 'admin', password: '000000' }) });
      return { status: r.status, text: await r.text() };
    });
    expect(call).toEqual({ status: HOST_REFUSED.status, text: HOST_REFUSED.body });

    // The administrator adds a name: the terminal (its web server, once the firmware has rewritten
    // the access file) answers it.
    const api = await deviceApi(request, terminal);
    expect((await api.call('GetRestParam', { ...kept.values[0], HostNames: 'console.test' })).retvalue).toBe(0);
    await expect(async () => expect((await page.goto(under('console.test')))!.status()).toBe(200)).toPass({ timeout: 15_000 });
    await expect(page).toHaveURL(/\/login/);
    await signIn(page);
    await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeVisible();
    // rebind.test is still a stranger.
    expect((await page.goto(under('rebind.test')))!.status()).toBe(HOST_REFUSED.status);
  } finally {
    await browser.close();
    await kept.restore();
  }
});
