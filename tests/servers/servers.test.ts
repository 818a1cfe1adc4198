// The console on real web servers (issue 12): lighttpd and nginx with the
// configuration the build generates, and civetweb serving the C table, each
// in front of the simulated terminal. Over plain HTTP (no decompression by the
// client): every file's type, encoding, cache policy and bytes; index.html
// for unknown paths; revalidation; a client without gzip; /goform/ reaching
// the API with a firmware-sized body; the security headers (the set's
// Content-Security-Policy, X-Frame-Options); and, for the servers that read a
// file system, the symlink swap the harness installs with.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { startSimulator, type Simulator } from '../../simulator/server.ts';
import { cacheControl, contentType, etagOf } from '../../build/serving.ts';
import { raw } from '../support/raw-http.ts';
import { openStream } from './stream.ts';
import { KIND } from '../../simulator/events.ts';
import { FRONT_KINDS, frontOf, startFront, type Front, type FrontKind } from '../../hil/web/servers.ts';
import { TEST_ADMIN } from '../../hil/admin.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const brand = JSON.parse(readFileSync(join(ROOT, 'brands/index.json'), 'utf8')).default as string;
const SITE = resolve(process.env.SITE_DIR ?? join(ROOT, 'dist', brand));
const manifest = JSON.parse(readFileSync(join(SITE, 'manifest.json'), 'utf8')) as { csp: string; files: { path: string; sha256: string; bytes: number }[] };
const index = manifest.files.find((f) => f.path === 'index.html')!;
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

const GZIP = { 'Accept-Encoding': 'gzip, deflate, br' };

/** A multipart body with one file field, as the browser sends a firmware package. */
function multipart(field: string, name: string, data: Buffer): { body: Buffer; type: string } {
  const boundary = '----console' + Date.now().toString(16);
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  return { body: Buffer.concat([Buffer.from(head), data, Buffer.from(`\r\n--${boundary}--\r\n`)]), type: `multipart/form-data; boundary=${boundary}` };
}

function serverSuite(kind: FrontKind): void {
  const t = suite(`${kind} in front of the simulated terminal`);
  let sim: Simulator;
  let front: Front;
  t.before(async () => {
    sim = await startSimulator({ activated: TEST_ADMIN.password, storeFile: join(mkdtempSync(join(tmpdir(), 'embed-sim-')), 'store.json') });
    front = await startFront(kind, SITE, new URL(sim.url).host);
  });
  t.after(async () => {
    await front?.close();
    await sim?.close();
  });

  t('every file of the set: its content type, gzip, its cache policy, the security headers, the very bytes the build made', async () => {
    for (const f of manifest.files) {
      const r = await raw(`${front.url}/${f.path}`, { headers: GZIP });
      assert.is(r.status, 200, f.path);
      assert.is(r.headers['content-type'], contentType(f.path), `${f.path} content type`);
      assert.is(r.headers['content-encoding'], 'gzip', `${f.path} encoding`);
      assert.is(r.headers['cache-control'], cacheControl(f.path), `${f.path} cache`);
      assert.is(r.headers['x-content-type-options'], 'nosniff', `${f.path} nosniff`);
      assert.is(r.headers['x-frame-options'], 'DENY', `${f.path} X-Frame-Options`);
      assert.is(r.headers['content-security-policy'], manifest.csp, `${f.path}: the manifest's policy`);
      assert.match(String(r.headers.vary), /Accept-Encoding/i, `${f.path} vary`);
      assert.ok(r.headers.etag, `${f.path} etag`);
      assert.is(sha(r.body), f.sha256, `${f.path}: the bytes the build wrote`);
      assert.is(gunzipSync(r.body).length, f.bytes, `${f.path} inflates to its size`);
    }
    // index.html, at / and at a deep link: the header policy (with frame-ancestors) and the same policy, less it, in the page.
    assert.match(manifest.csp, /(^|;)frame-ancestors 'none'(;|$)/);
    assert.not.match(manifest.csp, /unsafe-inline/);
    for (const path of ['/', '/user/userList']) {
      const r = await raw(front.url + path, { headers: GZIP });
      assert.is(r.headers['content-security-policy'], manifest.csp, path);
      assert.is(r.headers['x-frame-options'], 'DENY', path);
      const meta = /^<!doctype html><html[^>]*><head><meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(gunzipSync(r.body).toString());
      assert.ok(meta, `${path}: the policy is the first thing in <head>`);
      assert.is(meta![1], manifest.csp.replace(/;frame-ancestors 'none'/, ''), `${path}: the meta policy is the header's less frame-ancestors`);
    }
  });

  t('a path that names no file, outside /goform/, answers index.html with status 200 and no caching', async () => {
    for (const path of ['/', '/login', '/user/userList', '/basicSetting/display?from=reload', '/goform', '/manifest.json', '/missing.js', '/a/b/c.css', '/%E4%B8%AD']) {
      const r = await raw(front.url + path, { headers: GZIP });
      assert.is(r.status, 200, path);
      assert.is(r.headers['content-type'], 'text/html; charset=utf-8', path);
      assert.is(r.headers['content-encoding'], 'gzip', path);
      assert.is(r.headers['cache-control'], 'no-cache', path);
      assert.is(sha(r.body), index.sha256, `${path} is index.html`);
    }
    // A hashed name that is not in the set (an old page after an update) still gets the page, not an error.
    const gone = await raw(`${front.url}/c-ZZZZZZZZ.js`, { headers: GZIP });
    assert.is(gone.status, 200);
    assert.is(sha(gone.body), index.sha256);
  });

  t('revalidation: If-None-Match with the ETag answers 304 and no body', async () => {
    for (const f of [index, manifest.files.find((x) => x.path.endsWith('.css'))!]) {
      const first = await raw(`${front.url}/${f.path}`, { headers: GZIP });
      const again = await raw(`${front.url}/${f.path}`, { headers: { ...GZIP, 'If-None-Match': String(first.headers.etag) } });
      assert.is(again.status, 304, f.path);
      assert.is(again.body.length, 0, f.path);
    }
    if (kind === 'civetweb') assert.is((await raw(`${front.url}/`, { headers: GZIP })).headers.etag, etagOf(index.sha256), 'the table carries the content ETag');
  });

  t('a client that does not accept gzip', async () => {
    const r = await raw(`${front.url}/`, { headers: { 'Accept-Encoding': 'identity' } });
    assert.is(r.status, 200);
    if (kind === 'nginx') {
      // gunzip decompresses for it.
      assert.is(r.headers['content-encoding'], undefined);
      assert.ok(r.body.toString('utf8').startsWith('<!doctype html>'), 'plain HTML');
    } else {
      // Only gzip is in flash: it gets gzip, labelled so (docs/EMBEDDING.md).
      assert.is(r.headers['content-encoding'], 'gzip');
      assert.is(sha(r.body), index.sha256);
    }
  });

  t('/goform/ reaches the device: sign-in, a read with the token, a 5 MiB firmware upload answered by the API', async () => {
    const login = await raw(`${front.url}/goform/chklogin`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: TEST_ADMIN.password }) });
    assert.is(login.status, 200);
    const { retvalue, token } = JSON.parse(login.body.toString());
    assert.is(retvalue, 0);
    const info = await raw(`${front.url}/goform/SetInfoParam?_t=1`, { headers: { 'X-Token': token } });
    assert.is(info.status, 200);
    assert.is(JSON.parse(info.body.toString()).retvalue, 0);
    const unsigned = JSON.parse((await raw(`${front.url}/goform/SetInfoParam?_t=2`)).body.toString());
    assert.is.not(unsigned.retvalue, 0, 'the API, not the server, decides: no token, no data');
    const { body, type } = multipart('File', 'fw.bin', Buffer.alloc(5 * 1024 * 1024, 7));
    const up = await raw(`${front.url}/goform/UpdateMachine`, { method: 'POST', headers: { 'X-Token': token, 'Content-Type': type, 'Content-Length': String(body.length) }, body });
    assert.is(up.status, 200);
    assert.is(JSON.parse(up.body.toString()).retvalue, 10102, 'the whole body reached the API, which refused it as no package');
  });


  t('live events pass through unbuffered: the stream\'s first bytes, then each event before the next one happens; Last-Event-ID reaches the device', async () => {
    const login = await raw(`${front.url}/goform/chklogin`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: TEST_ADMIN.password }) });
    const { token } = JSON.parse(login.body.toString()) as { token: string };
    const open = async (headers: Record<string, string> = {}) => {
      const s = await openStream(`${front.url}/goform/EventStream`, { 'X-Token': token, ...headers });
      assert.match(String(s.headers['content-type']), /^text\/event-stream/, 'the device\'s type, as it sent it');
      await s.until(/retry: 2000\n/, 'the stream\'s first line, before any event');
      return s;
    };
    const s = await open();
    // Each event is made only once the one before has come through: a server that held them back would never pass this.
    for (let n = 1; n <= 3; n++) {
      sim.events.emit({ Kind: KIND.opened });
      await s.until(new RegExp(`id: ${n}\ndata: \\{"Id":${n},`), `event ${n}, with the stream still open`);
    }
    s.close();
    sim.events.emit({ Kind: KIND.alarm });
    const again = await open({ 'Last-Event-ID': '3' });
    await again.until(/id: 4\ndata: \{"Id":4,[^\n]*"Kind":5/, 'the event of the meantime, from Last-Event-ID');
    again.close();
  });
  if (kind !== 'civetweb')
    t('an update swaps the symlink: the next request gets the new release, nothing in between', async () => {
      const live = join(dirname(front.root), 'www.d', 'r1');
      const next = join(dirname(front.root), 'www.d', 'r2');
      cpSync(live, next, { recursive: true });
      writeFileSync(join(next, 'index.html.gz'), gzipSync('<!doctype html><title>release 2</title>'));
      symlinkSync(next, `${front.root}.next`);
      renameSync(`${front.root}.next`, front.root);
      const r = await raw(`${front.url}/user/userList`, { headers: GZIP });
      assert.match(gunzipSync(r.body).toString(), /release 2/);
    });

  t.run();
}

for (const kind of FRONT_KINDS) serverSuite(kind);

// FRONT_SERVER for the browser tests (tests/browser/fixtures.ts): several servers share one run's tests out.
const choice = suite('FRONT_SERVER: the server a browser test goes through');
choice('none, one, or one of several by the test\'s file and titles, the same one each time; a wrong name is refused', () => {
  // Thirty tests of one file: the titles alone share them out.
  const titles = Array.from({ length: 30 }, (_, i) => ['users.spec.ts', `test ${i}`]);
  assert.is(frontOf('', titles[0]), undefined);
  assert.ok(titles.every((t) => frontOf('nginx', t) === 'nginx'));
  const all = FRONT_KINDS.join(',');
  const picked = titles.map((t) => frontOf(all, t));
  assert.equal(new Set(picked), new Set(FRONT_KINDS), 'the thirty go through each of the three');
  assert.equal(titles.map((t) => frontOf(` ${FRONT_KINDS.join(' , ')} `, [...t])), picked, 'the same test, the same server');
  assert.throws(() => frontOf('nginx,apache', titles[0]), /^FRONT_SERVER=nginx,apache: apache is none of lighttpd, nginx, civetweb \(one, or several with commas\)$/);
});
choice.run();
