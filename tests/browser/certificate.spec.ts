// The HTTPS certificate on /network/securityOne (issue 23 §3): the screen
// shows the certificate the device answers, installs the organisation's own
// (then shows its subject, as the device does), and a key that belongs to
// another certificate is refused at the key's picker with the files kept.
// Test certificates come from the openssl command line.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readPo } from '../../build/po.ts';
import { test, expect, openSignedIn, expectAccessible, readDevice, skipOnTerminal } from './fixtures.ts';

const en = readPo(join(import.meta.dirname, '../../locales/en/messages.po'));
const text = (id: string) => en.get(id) ?? id;

let dir = '';
const file = (name: string) => join(dir, name);
const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
/** A P-256 key and a self-signed certificate for it, valid 30 days. */
const make = (name: string, cn: string) =>
  openssl('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.crt`, '-subj', `/CN=${cn}/O=Example <b>Org<\\/b>`, '-days', '30', '-addext', `subjectAltName=DNS:${cn}`);

test.beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cert-e2e-'));
  make('good', 'console.example.org');
  make('other', 'other.example.org');
  // The organisation's: a certificate its CA signs, installed with the CA after it (not self-signed).
  make('ca', 'Example Test CA');
  openssl('req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', 'org.key', '-out', 'org.csr', '-subj', '/CN=console.example.org/O=Example <b>Org<\\/b>');
  openssl('x509', '-req', '-in', 'org.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '30', '-out', 'org.crt');
  writeFileSync(file('org-chain.crt'), Buffer.concat([readFileSync(file('org.crt')), readFileSync(file('ca.crt'))]));
});
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Page = import('playwright/test').Page;
const section = (page: Page) => page.locator('section', { has: page.getByRole('heading', { name: text('net.cert') }) });
/** The value the section shows for a label ('net.certSubject', ...). */
const row = (page: Page, id: string) => section(page).locator('dl > div').filter({ has: page.locator('dt', { hasText: text(id) }) }).locator('dd');

test('the certificate section shows the device\'s certificate and installs a new one', async ({ page, request, terminal }) => {
  skipOnTerminal('installing replaces the terminal\'s certificate and key, which cannot be read back to put them back');
  const before = await readDevice(request, terminal, 'SetCertificate');
  await openSignedIn(page, '/network/securityOne');
  const cert = section(page);
  await expect(row(page, 'net.certSubject')).toHaveText(String(before.Subject));
  await expect(row(page, 'net.certIssuer')).toHaveText(String(before.Issuer));
  await expect(cert.getByText(text('net.certSelf'))).toBeVisible();
  const install = cert.getByRole('button', { name: text('net.certInstall') });
  await expect(install).toBeDisabled();
  await cert.getByLabel(text('net.certFile')).setInputFiles(file('org-chain.crt'));
  await cert.getByLabel(text('net.certKey')).setInputFiles(file('org.key'));
  await install.click();
  await expect(page.getByText(text('msg.success'))).toBeVisible();
  // What the device answers now; its markup-like text ("<b>", escaped as RFC 4514 writes names) shown as text.
  const subject = String((await readDevice(request, terminal, 'SetCertificate')).Subject);
  expect(subject).toBe('CN=console.example.org, O=Example \\<b\\>Org\\</b\\>');
  await expect(row(page, 'net.certSubject')).toHaveText(subject);
  await expect(row(page, 'net.certIssuer')).toHaveText('CN=Example Test CA, O=Example \\<b\\>Org\\</b\\>');
  await expect(cert.getByText(text('net.certSelf'))).toHaveCount(0);
  await expect(cert.locator('b')).toHaveCount(0);
  await expectAccessible(page, 'certificate installed');
  // Still there after a reload: the device's, not the page's.
  await page.reload();
  await expect(row(page, 'net.certSubject')).toHaveText(subject);
});

test('a key of another certificate is refused at the key\'s picker, and the files stay', async ({ page, request, terminal }) => {
  const before = await readDevice(request, terminal, 'SetCertificate');
  await openSignedIn(page, '/network/securityOne');
  const cert = section(page);
  const certFile = cert.getByLabel(text('net.certFile'));
  const keyFile = cert.getByLabel(text('net.certKey'));
  await certFile.setInputFiles(file('good.crt'));
  await keyFile.setInputFiles(file('other.key'));
  await cert.getByRole('button', { name: text('net.certInstall') }).click();
  await expect(keyFile).toHaveAttribute('aria-invalid', 'true');
  await expect(keyFile).toHaveAccessibleDescription(text('msg.certKeyMismatch'));
  await expect(certFile).not.toHaveAttribute('aria-invalid', 'true');
  // What was chosen stays, for another try.
  expect(await certFile.evaluate((i: HTMLInputElement) => i.files?.[0]?.name)).toBe('good.crt');
  expect(await keyFile.evaluate((i: HTMLInputElement) => i.files?.[0]?.name)).toBe('other.key');
  await expectAccessible(page, 'certificate refused');
  // Nothing changed on the device; the right key then installs.
  expect(await readDevice(request, terminal, 'SetCertificate')).toEqual(before);
  if (terminal.sim) {
    await keyFile.setInputFiles(file('good.key'));
    await expect(keyFile).not.toHaveAttribute('aria-invalid', 'true');
    await cert.getByRole('button', { name: text('net.certInstall') }).click();
    await expect(row(page, 'net.certSubject')).toHaveText(/^CN=console\.example\.org, /);
  }
});
