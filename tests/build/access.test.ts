// The access file and the server files the build writes for Host names and
// HTTPS (build/access.ts, build/servers.ts), and embed/civetweb/console_access.c
// compiled with gcc and run on a table of Host and Origin headers, which it
// must judge as build/serving.ts's hostAllowed and originAllowed do
// (tests/servers runs all three servers on the same rules).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { hostAllowed, originAllowed } from '../../build/serving.ts';
import { accessFile, accessOf } from '../../build/access.ts';
import { lighttpdConf, nginxConf, serverFiles } from '../../build/servers.ts';

const opts = { brand: 'ia', version: '1.0.0', root: '/www', listen: '80', api: '127.0.0.1:8081' };

test('the access file: the names and Protocol in each format; anything that is not a DNS name is refused', () => {
  const a = accessOf({ HostNames: 'terminal.example door-3.lan', Protocol: 1 });
  assert.equal(a, { names: ['terminal.example', 'door-3.lan'], protocol: 1 });
  assert.match(accessFile('plain', a), /\nprotocol 1\nname terminal\.example\nname door-3\.lan\n$/);
  assert.match(accessFile('nginx', a), /\nserver_name terminal\.example door-3\.lan;\nset \$console_https_only 1;\n$/);
  const none = accessFile('nginx', accessOf({ HostNames: '', Protocol: 0 }));
  assert.not.match(none, /server_name/, 'no names: no server_name line');
  assert.match(none, /set \$console_https_only 0;/);
  for (const bad of ['a;b', 'a"b', 'a b', '-a', 'a..b', 'a.', '*.example', '1.2.3.4:80', 'x'.repeat(64), '']) assert.throws(() => accessFile('plain', { names: [bad], protocol: 0 }), /not a host name/, bad);
  assert.throws(() => accessFile('nginx', { names: Array.from({ length: 9 }, (_, i) => `n${i}.lan`), protocol: 0 }), /at most 8/);
  assert.throws(() => accessFile('plain', { names: [], protocol: 2 as 0 }), /Protocol 2/);
});

test('the server files: HTTPS with the device certificate in --etc, the access file, lighttpd\'s access.lua', () => {
  const l = serverFiles('lighttpd', { ...opts, https: '127.0.0.1:8443', etc: '/data/console' });
  assert.equal(l.map(([n]) => n), ['lighttpd.conf', 'access.txt', 'access.lua']);
  assert.match(l[0][1], /\$SERVER\["socket"\] == "127\.0\.0\.1:8443" \{\n  ssl\.engine = "enable"\n  ssl\.pemfile = "\/data\/console\/cert\.pem"\n  ssl\.privkey = "\/data\/console\/key\.pem"/);
  assert.match(l[0][1], /"MinProtocol" => "TLSv1\.2"/);
  assert.match(l[0][1], /magnet\.attract-raw-url-to = \( "\/data\/console\/access\.lua" \)/);
  assert.match(l[2][1], /local ACCESS_FILE = "\/data\/console\/access\.txt"\nlocal HTTPS_PORT = 8443\n/);
  const n = serverFiles('nginx', { ...opts, etc: '/data/console' });
  assert.equal(n.map(([name]) => name), ['nginx-console.conf', 'access-nginx.conf']);
  // HTTP/2 over TLS on both of nginx's HTTPS servers (issue 31), sessions resumed for an hour, small TLS records, idle connections kept a minute.
  assert.match(n[0][1], /listen 80 default_server;\n  listen 443 ssl http2 default_server;/);
  assert.match(n[0][1], /listen 80;\n  listen 443 ssl http2;/);
  assert.match(n[0][1], /ssl_session_timeout 3600s;/);
  // TLS records a TCP segment long: the browser reads an answer as it arrives (tests/servers/line.test.ts reads them).
  assert.match(n[0][1], /ssl_buffer_size 1400;/);
  assert.match(l[0][1], /server\.max-keep-alive-idle = 60\n/);
  assert.match(n[0][1], /include \/data\/console\/access-nginx\.conf;/);
  assert.match(n[0][1], /ssl_protocols TLSv1\.2 TLSv1\.3;/);
  assert.match(n[0][1], /return 301 https:\/\/\$host\$request_uri;/, 'port 443: no port in the redirect');
  assert.match(nginxConf({ ...opts, https: '8443' }), /return 301 https:\/\/\$host:8443\$request_uri;/);
  assert.match(n[0][1], /proxy_set_header Host \$http_host;/);
  assert.throws(() => lighttpdConf({ ...opts, https: '80' }), /HTTP and HTTPS need their own port/);
  assert.throws(() => nginxConf({ ...opts, etc: 'etc; evil' }), /--etc/);
  assert.throws(() => nginxConf({ ...opts, https: 'x' }), /--https x/);
});

test('console_access.c judges Host and Origin headers as hostAllowed and originAllowed do', () => {
  const names = ['console.test', 'door-3.lan'];
  const hosts = [
    '127.0.0.1', '127.0.0.1:8080', ' 192.168.1.5:80 ', '0.0.0.0', '255.255.255.255:65535', '[::1]', '[::1]:8080', '[fe80::1%25eth0]:80', '[FE80::1]', 'localhost',
    'LocalHost:80', 'localhost.', 'console.test', 'CONSOLE.TEST:8080', 'console.test.', 'door-3.lan:1',
    'rebind.test', 'localhost.rebind.test', '127.0.0.1.nip.io', '256.1.1.1', '01.2.3.4', '1.2.3', '1.2.3.4.5', '127.0.0.1:', '127.0.0.1:123456', '127.0.0.1:80:80',
    '127.0.0.1:8o', '[::1', '::1', '[]', '[::1]x', '[fe80::1%eth0]', 'console.test.evil', 'evil-console.test', 'console', '.', ':80', '',
  ];
  const origins: Array<[string | undefined, string]> = [
    [undefined, '127.0.0.1:8080'], ['http://127.0.0.1:8080', '127.0.0.1:8080'], ['https://127.0.0.1:8080', '127.0.0.1:8080'], ['HTTP://127.0.0.1:8080', '127.0.0.1:8080'],
    ['http://127.0.0.1', '127.0.0.1'], ['http://127.0.0.1', '127.0.0.1:80'], ['http://127.0.0.1:80', '127.0.0.1'], ['https://127.0.0.1', '127.0.0.1:443'], ['https://127.0.0.1', '127.0.0.1:80'],
    ['http://127.0.0.1:8081', '127.0.0.1:8080'], ['http://evil.example', '127.0.0.1'], ['null', '127.0.0.1'], ['ftp://127.0.0.1', '127.0.0.1'], ['http://[::1]:8080', '[::1]:8080'],
    ['http://console.test:8080', 'CONSOLE.TEST:8080'], ['http://localhost:8080', '127.0.0.1:8080'], ['http://127.0.0.1:8080', ''], ['', '127.0.0.1'], ['http://', '127.0.0.1'],
  ];
  const dir = mkdtempSync(join(tmpdir(), 'console-access-'));
  const cString = (s: string) => JSON.stringify(s);
  writeFileSync(join(dir, 'access.txt'), accessFile('plain', { names, protocol: 0 }));
  writeFileSync(
    join(dir, 'main.c'),
    `#include <stdio.h>
#include "console_access.h"
int main(void) {
  static const char *hosts[] = {${hosts.map(cString).join(', ')}};
  static const char *origins[][2] = {${origins.map(([o, h]) => `{${o === undefined ? 'NULL' : cString(o)}, ${cString(h)}}`).join(', ')}};
  struct console_access a;
  unsigned i;
  if (console_access_read(${cString(join(dir, 'access.txt'))}, &a) != 0) return 1;
  for (i = 0; i < sizeof hosts / sizeof hosts[0]; i++) printf("%d", console_host_allowed(hosts[i], &a));
  printf(" ");
  for (i = 0; i < sizeof origins / sizeof origins[0]; i++) printf("%d", console_origin_allowed(origins[i][0], origins[i][1]));
  printf(" %d %d\\n", a.protocol, a.count);
  return 0;
}
`,
  );
  const src = resolve(import.meta.dirname, '../../embed/civetweb');
  const cc = spawnSync('gcc', ['-std=c99', '-Wall', '-Wextra', '-pedantic', '-Werror', `-I${src}`, join(dir, 'main.c'), join(src, 'console_access.c'), '-o', join(dir, 'main')], { encoding: 'utf8' });
  assert.is(cc.status, 0, cc.stderr);
  const [h, o, protocol, count] = spawnSync(join(dir, 'main'), { encoding: 'utf8' }).stdout.trim().split(' ');
  assert.is(`${protocol} ${count}`, '0 2', 'the access file read: Protocol 0, two names');
  hosts.forEach((host, i) => assert.is(h[i], hostAllowed(host, names) ? '1' : '0', `Host ${JSON.stringify(host)}`));
  origins.forEach(([origin, host], i) => assert.is(o[i], originAllowed(origin, host) ? '1' : '0', `Origin ${JSON.stringify(origin)} for Host ${JSON.stringify(host)}`));
});

test.run();
