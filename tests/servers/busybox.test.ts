// Evidence for docs/EMBEDDING.md: Debian's busybox httpd cannot be the
// console's server on its own. Each check below is a claim the page makes;
// if a busybox build changes, the claim fails here first.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const brand = JSON.parse(readFileSync(join(ROOT, 'brands/index.json'), 'utf8')).default as string;
const SITE = resolve(process.env.SITE_DIR ?? join(ROOT, 'dist', brand));

const port = () =>
  new Promise<number>((res) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => res(p));
    });
  });

const t = suite('busybox httpd, tried as the console server');
let dir: string;
let url: string;
let stop: () => void;
let stderr = '';

t.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'console-busybox-'));
  const www = join(dir, 'www');
  mkdirSync(www);
  for (const f of readdirSync(SITE)) if (f.endsWith('.gz')) copyFileSync(join(SITE, f), join(www, f));
  // The proxy line busybox documents for builds with FEATURE_HTTPD_PROXY (Debian's has none).
  writeFileSync(join(dir, 'httpd.conf'), 'P:/goform/*:http://127.0.0.1:9/goform/\n');
  const p = await port();
  url = `http://127.0.0.1:${p}`;
  const child = spawn('busybox', ['httpd', '-f', '-p', `127.0.0.1:${p}`, '-h', www, '-c', join(dir, 'httpd.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr.on('data', (d) => (stderr += d));
  stop = () => child.kill();
  for (let i = 0; i < 100; i++) {
    if (await fetch(`${url}/index.html`).then((r) => r.ok, () => false)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('busybox httpd did not start');
});
t.after(() => {
  stop?.();
  rmSync(dir, { recursive: true, force: true });
});

t('it serves the .gz files with Content-Encoding gzip to a client that accepts gzip', async () => {
  const r = await fetch(`${url}/index.html`, { headers: { 'Accept-Encoding': 'gzip' } });
  assert.is(r.status, 200);
  assert.is(r.headers.get('content-encoding'), 'gzip');
  assert.match(await r.text(), /^<!doctype html>/);
});

t('it refuses a P: (proxy) line in its configuration, so /goform/ is not handed on', async () => {
  assert.match(stderr, /config error 'P:\/goform\/\*/);
  assert.is((await fetch(`${url}/goform/chklogin`)).status, 404);
});

t('it answers POST outside /cgi-bin/ with 501, so the API cannot be a file', async () => {
  const r = await fetch(`${url}/goform/chklogin`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
  assert.is(r.status, 501);
});

t('it sends no Cache-Control, and 404 (not index.html) for / and for a deep link', async () => {
  const file = readdirSync(SITE).find((f) => /^c-.*\.js\.gz$/.test(f))!.slice(0, -3);
  const asset = await fetch(`${url}/${file}`, { headers: { 'Accept-Encoding': 'gzip' } });
  assert.is(asset.status, 200);
  assert.is(asset.headers.get('cache-control'), null);
  assert.is((await fetch(`${url}/`)).status, 404);
  assert.is((await fetch(`${url}/user/userList`)).status, 404);
});

t.run();
