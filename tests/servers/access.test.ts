// Who the console answers, through each real server (issue 23 §2, §3):
// lighttpd and nginx with the generated configuration, civetweb with the C
// server, in front of the simulated terminal. The Host allow-list and the
// Origin check as build/serving.ts's hostAllowed and originAllowed judge a
// table of cases; a refused request never reaches the API (a tap between
// server and simulator counts its connections); an added name is served
// once the access file names it and refused once it no longer does; HTTPS
// with the tests' own CA (pki.ts): the handshake verifies, TLS 1.1 is
// refused, every file is served as over HTTP; Protocol 1 redirects HTTP to
// the same path on https and sends HSTS, Protocol 0 serves both and does not.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { raw as rawHttp } from '../support/raw-http.ts';
import { connect as tlsConnect } from 'node:tls';
import { createServer, connect, type Server } from 'node:net';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startSimulator, type Simulator } from '../../simulator/server.ts';
import { HOST_REFUSED, ORIGIN_REFUSED, hostAllowed, originAllowed } from '../../build/serving.ts';
import { HSTS, accessOf } from '../../build/access.ts';
import { FRONT_KINDS, startFront, type Front, type FrontKind } from '../../hil/web/servers.ts';
import { testPki } from '../../hil/web/pki.ts';
import { TEST_ADMIN } from '../../hil/admin.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const brand = JSON.parse(readFileSync(join(ROOT, 'brands/index.json'), 'utf8')).default as string;
const SITE = resolve(process.env.SITE_DIR ?? join(ROOT, 'dist', brand));
const manifest = JSON.parse(readFileSync(join(SITE, 'manifest.json'), 'utf8')) as { csp: string; files: { path: string; sha256: string }[] };
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** One request over HTTP, or HTTPS trusting only the tests' CA; Host and every header exactly as given. */
const raw = (url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) =>
  rawHttp(url, { ...init, headers: { 'Accept-Encoding': 'gzip', ...init.headers }, ca: testPki().ca });

/** Between the server and the API: a TCP relay that counts the connections the server opens (one per /goform/ request). */
async function tap(api: string): Promise<{ address: string; connections: () => number; close: () => Promise<void> }> {
  const [host, port] = [api.slice(0, api.lastIndexOf(':')), Number(api.slice(api.lastIndexOf(':') + 1))];
  let n = 0;
  const server: Server = createServer((c) => {
    n++;
    const up = connect(port, host);
    c.pipe(up).pipe(c);
    c.on('error', () => up.destroy());
    up.on('error', () => c.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { address: `127.0.0.1:${(server.address() as { port: number }).port}`, connections: () => n, close: () => new Promise((r) => server.close(() => r())) };
}

const login = (origin?: string) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json', ...(origin === undefined ? {} : { Origin: origin }) },
  body: JSON.stringify({ username: TEST_ADMIN.username, password: TEST_ADMIN.password }),
});

function accessSuite(kind: FrontKind): void {
  const t = suite(`${kind}: Host, Origin and HTTPS`);
  let sim: Simulator;
  let relay: Awaited<ReturnType<typeof tap>>;
  let front: Front;
  let port: string;
  t.before(async () => {
    sim = await startSimulator({ activated: TEST_ADMIN.password, storeFile: join(mkdtempSync(join(tmpdir(), 'embed-access-')), 'store.json') });
    relay = await tap(new URL(sim.url).host);
    front = await startFront(kind, SITE, relay.address);
    port = new URL(front.url).port;
  });
  t.after(async () => {
    await front?.close();
    await relay?.close();
    await sim?.close();
  });

  /** The administrator's names, as the firmware has them: in the terminal (through the API) and in the server's access file. */
  const setNames = async (names: string[], protocol: 0 | 1 = 0) => {
    // Over HTTPS: with Protocol 1, HTTP would answer a redirect.
    const signIn = JSON.parse((await raw(`${front.https}/goform/chklogin`, login())).body.toString());
    const write = await raw(`${front.https}/goform/GetRestParam`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Token': signIn.token },
      body: JSON.stringify({ Protocol: 0, Port: 80, RestApi: 0, HostNames: names.join(' ') }),
    });
    assert.is(JSON.parse(write.body.toString()).retvalue, 0, 'the terminal took the names');
    await front.setAccess({ ...accessOf({ HostNames: names.join(' ') }), protocol });
  };

  t('a name the console does not answer gets 421 and the page, for a file and for /goform/, and the API never sees it', async () => {
    const before = relay.connections();
    for (const [path, init] of [['/', {}], [`/${manifest.files[1].path}`, {}], ['/user/userList', {}], ['/goform/chklogin', login(`http://rebind.test:${port}`)]] as const) {
      const r = await raw(front.url + path, { ...init, headers: { ...init.headers, Host: `rebind.test:${port}` } });
      assert.is(r.status, HOST_REFUSED.status, path);
      assert.is(r.body.toString(), HOST_REFUSED.body, `${path}: the page`);
      assert.is(r.headers['content-type'], 'text/plain; charset=utf-8', path);
      assert.is(r.headers['content-encoding'], undefined, `${path}: plain text, not gzip`);
    }
    assert.is(relay.connections(), before, 'nothing reached the API');
  });

  t('Host: the same answer as hostAllowed() for IP literals, localhost, an added name and what only looks like one', async () => {
    await setNames(['console.test']);
    const hosts = [
      `127.0.0.1:${port}`, '127.0.0.1', `10.0.0.255:${port}`, `[::1]:${port}`, '[::1]', `[fe80::1]:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `localhost.:${port}`,
      `console.test:${port}`, `Console.Test.:${port}`,
      `rebind.test:${port}`, `localhost.rebind.test:${port}`, `127.0.0.1.rebind.test:${port}`, `256.1.1.1:${port}`, `01.2.3.4:${port}`, `1.2.3:${port}`,
      `console.test.evil:${port}`, `evil-console.test:${port}`, `127.0.0.1:${port}:${port}`, '[::1',
    ];
    for (const host of hosts) {
      const r = await raw(`${front.url}/`, { headers: { Host: host } });
      if (hostAllowed(host, ['console.test'])) assert.is(r.status, 200, `Host ${JSON.stringify(host)} is answered`);
      // A Host that is not even well-formed may get 400 from the server's own parser: refused all the same.
      else assert.ok(r.status === HOST_REFUSED.status || r.status === 400, `Host ${JSON.stringify(host)} is refused (${r.status})`);
    }
    // No Host at all (HTTP/1.0 allows it): refused too.
    const reply = await new Promise<string>((res, rej) => {
      let text = '';
      const s = connect(Number(port), '127.0.0.1', () => s.end('GET / HTTP/1.0\r\n\r\n'));
      s.on('data', (d) => (text += d));
      s.on('end', () => res(text));
      s.on('error', rej);
    });
    assert.match(reply, new RegExp(`^HTTP/1\\.[01] (${HOST_REFUSED.status}|400) `), 'no Host: refused');
  });

  t('an added name is served once the access file names it, and refused once it is taken out', async () => {
    await setNames(['console.test']);
    const as = (name: string) => {
      const call = login(`http://${name}:${port}`);
      return raw(`${front.url}/goform/chklogin`, { ...call, headers: { ...call.headers, Host: `${name}:${port}` } });
    };
    const ok = await as('console.test');
    assert.is(ok.status, 200);
    assert.is(JSON.parse(ok.body.toString()).retvalue, 0, 'signed in under the added name, Host and Origin passed on as they came');
    assert.is((await as('door.test')).status, HOST_REFUSED.status);
    await setNames(['door.test']);
    assert.is((await as('console.test')).status, HOST_REFUSED.status, 'the name taken out is refused');
    assert.is((await raw(`${front.url}/`, { headers: { Host: `console.test:${port}` } })).status, HOST_REFUSED.status);
    assert.is(JSON.parse((await as('door.test')).body.toString()).retvalue, 0, 'the new name is served');
    await setNames([]);
  });

  t('Origin: a call from another site gets 403 and never reaches the API; its own page and no Origin reach it', async () => {
    const own = `http://127.0.0.1:${port}`;
    const origins = [undefined, own, `https://127.0.0.1:${port}`, `HTTP://127.0.0.1:${port}`, 'http://evil.example', `http://127.0.0.1:${Number(port) + 1}`, 'http://127.0.0.1', `http://localhost:${port}`, 'null', `ftp://127.0.0.1:${port}`];
    for (const origin of origins) {
      const before = relay.connections();
      const r = await raw(`${front.url}/goform/chklogin`, login(origin));
      if (originAllowed(origin, `127.0.0.1:${port}`)) {
        assert.is(r.status, 200, `Origin ${origin} reaches the API`);
        assert.is(JSON.parse(r.body.toString()).retvalue, 0, `Origin ${origin}: signed in`);
        assert.is(relay.connections(), before + 1, `Origin ${origin}: through the tap`);
      } else {
        assert.is(r.status, ORIGIN_REFUSED.status, `Origin ${origin} is refused`);
        assert.is(r.body.toString(), ORIGIN_REFUSED.body, `Origin ${origin}: the text`);
        assert.is(relay.connections(), before, `Origin ${origin}: the server refused it, not the API`);
      }
    }
    // Files are not calls: a page's own module scripts carry an Origin too.
    assert.is((await raw(`${front.url}/`, { headers: { Origin: 'http://evil.example' } })).status, 200);
  });

  t('HTTPS: the handshake verifies against the test CA, TLS 1.1 is refused, and every file is served as over HTTP', async () => {
    const { port: tlsPort } = new URL(front.https);
    const handshake = (opts: { maxVersion: 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3' }) =>
      new Promise<{ protocol: string | null; cipher: string } | Error>((res) => {
        const s = tlsConnect({ host: '127.0.0.1', port: Number(tlsPort), ca: testPki().ca, minVersion: 'TLSv1', ciphers: 'DEFAULT@SECLEVEL=0', ...opts }, () => {
          res({ protocol: s.getProtocol(), cipher: s.getCipher().name });
          s.end();
        });
        s.on('error', res);
      });
    const v13 = await handshake({ maxVersion: 'TLSv1.3' });
    assert.ok(!(v13 instanceof Error), String(v13));
    assert.is((v13 as { protocol: string }).protocol, 'TLSv1.3');
    const v12 = await handshake({ maxVersion: 'TLSv1.2' });
    assert.ok(!(v12 instanceof Error), String(v12));
    assert.match((v12 as { cipher: string }).cipher, /^ECDHE-(ECDSA|RSA)-(AES\d+-GCM-SHA\d+|CHACHA20-POLY1305)$/, 'forward secrecy and an AEAD cipher');
    const v11 = await handshake({ maxVersion: 'TLSv1.1' });
    assert.ok(v11 instanceof Error, 'TLS 1.1 is refused');
    assert.match((v11 as NodeJS.ErrnoException).code ?? '', /ALERT_PROTOCOL_VERSION|UNSUPPORTED_PROTOCOL/, String(v11));

    for (const f of manifest.files) {
      const [overTls, overHttp] = [await raw(`${front.https}/${f.path}`), await raw(`${front.url}/${f.path}`)];
      assert.is(overTls.status, 200, f.path);
      assert.is(sha(overTls.body), f.sha256, `${f.path}: the bytes the build made`);
      for (const h of ['content-type', 'content-encoding', 'cache-control', 'content-security-policy', 'x-frame-options', 'x-content-type-options'])
        assert.is(overTls.headers[h], overHttp.headers[h], `${f.path}: ${h} as over HTTP`);
      assert.is(overTls.headers['strict-transport-security'], undefined, `${f.path}: no HSTS with Protocol 0`);
    }
    const deep = await raw(`${front.https}/user/userList`);
    assert.is(deep.status, 200);
    const call = await raw(`${front.https}/goform/chklogin`, login(front.https));
    assert.is(JSON.parse(call.body.toString()).retvalue, 0, 'a call over HTTPS from the page on HTTPS');
  });

  t('Protocol 0 serves HTTP and HTTPS; Protocol 1 redirects HTTP to the same path on https and sends HSTS', async () => {
    const httpsPort = new URL(front.https).port;
    assert.is((await raw(`${front.url}/user/userList`)).status, 200, 'Protocol 0: HTTP serves');
    assert.is((await raw(`${front.url}/`)).headers['strict-transport-security'], undefined);
    await setNames(['console.test'], 1);
    try {
      for (const [host, path] of [[`127.0.0.1:${port}`, '/user/userList?from=bookmark'], [`console.test:${port}`, '/'], [`[::1]:${port}`, '/goform/SetInfoParam?_t=1']]) {
        const r = await raw(front.url + path, { headers: { Host: host } });
        assert.is(r.status, 301, `${host}${path}`);
        assert.is(r.headers.location, `https://${host.replace(/:\d+$/, '')}:${httpsPort}${path}`, `${host}${path}: the same path on https`);
      }
      assert.is((await raw(`${front.url}/`, { headers: { Host: `rebind.test:${port}` } })).status, HOST_REFUSED.status, 'a foreign name is refused, not redirected');
      for (const path of ['/', '/user/userList', `/${manifest.files.find((f) => f.path.endsWith('.js'))!.path}`]) {
        const r = await raw(front.https + path);
        assert.is(r.status, 200, path);
        assert.is(r.headers['strict-transport-security'], HSTS, `${path}: HSTS over HTTPS with Protocol 1`);
      }
    } finally {
      await setNames([], 0);
    }
    assert.is((await raw(`${front.url}/`)).status, 200, 'back to Protocol 0: HTTP serves again');
  });

  t.run();
}

for (const kind of FRONT_KINDS) accessSuite(kind);
