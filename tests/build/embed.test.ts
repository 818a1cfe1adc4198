// The embedding outputs on their own: the serving rules the build enforces,
// the server configurations' options, and the C table's lookups compiled
// with gcc and run (tests/servers runs them behind real servers).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NOTICES, cacheControl, contentType, servingProblems, etagOf } from '../../build/serving.ts';
import { lighttpdConf, nginxConf } from '../../build/servers.ts';
import { cHeader, cSource, type TableFile } from '../../build/c-table.ts';

const opts = { brand: 'ia', version: '1.0.0', root: '/www', listen: '80', api: '127.0.0.1:8081' };

test('the build refuses a file the servers could not serve by the rules', () => {
  assert.equal(servingProblems(['index.html', 'THIRD-PARTY-NOTICES.txt', 'app-4K4OOUAK.js', 'lang-zh-B3A7B1D7.js', 'logo-5B6A1DEB.svg']), []);
  const bad = servingProblems(['app.js', 'data-ABCDEFGH.wasm', 'NOTICES.txt']);
  assert.match(bad[0], /app\.js: not index\.html or THIRD-PARTY-NOTICES\.txt and no content hash/);
  assert.match(bad[1], /data-ABCDEFGH\.wasm: no content type/);
  assert.match(bad[2], /NOTICES\.txt: not index\.html or THIRD-PARTY-NOTICES\.txt and no content hash/);
});

test('the notices keep their name from release to release: served as plain text and revalidated, like index.html', () => {
  assert.is(contentType(NOTICES), 'text/plain; charset=utf-8');
  assert.is(cacheControl(NOTICES), cacheControl('index.html'));
  assert.is(cacheControl('app-4K4OOUAK.js'), 'public, max-age=31536000, immutable');
  const l = lighttpdConf(opts);
  assert.match(l, /"\^\/\(THIRD-PARTY-NOTICES\\\.txt\)\(\?:\\\?\.\*\)\?\$" => "\/\$1\.gz"/, 'lighttpd answers it from its .gz');
  assert.match(l, /\$HTTP\["url"\] =~ "\^\/\(index\\\.html\|THIRD-PARTY-NOTICES\\\.txt\)\\\.gz\$" \{\n[^}]*"Cache-Control" => "no-cache"/);
  assert.match(nginxConf(opts), /location = \/THIRD-PARTY-NOTICES\.txt \{\n[^}]*add_header Cache-Control "no-cache";/);
  const row = cSource('ia', [{ path: 'index.html', sha256: 'a'.repeat(64), data: new Uint8Array(1) }, { path: NOTICES, sha256: 'b'.repeat(64), data: new Uint8Array(1) }])
    .split('\n')
    .find((r) => r.startsWith(`  {"/${NOTICES}"`));
  assert.match(row!, /"text\/plain; charset=utf-8", "\\"b{32}\\"", "no-cache", file_0, 1u, 1, CONSOLE_CACHE_REVALIDATE\}/, 'the C table row');
});

test('server configurations: listen, API and root are checked and written where each server wants them', () => {
  const n = nginxConf({ ...opts, listen: '127.0.0.1:8080', api: 'unix:/run/api.sock', root: '/www/' });
  assert.match(n, /listen 127\.0\.0\.1:8080;/);
  assert.match(n, /proxy_pass http:\/\/unix:\/run\/api\.sock:;/);
  assert.match(n, /root \/www;/);
  const l = lighttpdConf({ ...opts, api: 'unix:/run/api.sock' });
  assert.match(l, /server\.port = 80\n/);
  assert.not.match(l, /server\.bind/);
  assert.match(l, /"socket" => "\/run\/api\.sock"/);
  assert.throws(() => nginxConf({ ...opts, listen: 'eighty' }), /--listen eighty/);
  assert.throws(() => lighttpdConf({ ...opts, api: 'http://x' }), /--api http:\/\/x/);
  assert.throws(() => nginxConf({ ...opts, root: 'www; evil' }), /--root/);
});

test('the C table compiles as strict C99 and finds what a server asks for', () => {
  const file = (path: string, text: string): TableFile => ({ path, sha256: (path.length.toString(16) + 'ab').padEnd(64, '0'), data: new TextEncoder().encode(text) });
  const files = [file('index.html', '<html>'), file('app-AAAAAAAA.js', 'js'), file('c-BBBBBBBB.js', 'c'), file('layout-CCCCCCCC.css', 'css')];
  const dir = mkdtempSync(join(tmpdir(), 'ctable-'));
  writeFileSync(join(dir, 'console_files.h'), cHeader('ia', '1.0.0', files));
  writeFileSync(join(dir, 'console_files.c'), cSource('ia', files));
  writeFileSync(
    join(dir, 'main.c'),
    `#include <stdio.h>
#include "console_files.h"
static const char *p(const struct console_file *f) { return f ? f->path : "NULL"; }
int main(void) {
  const char *uris[] = {"/app-AAAAAAAA.js", "/app-AAAAAAAA.js?v=2", "/c-BBBBBBBB.js#x", "/layout-CCCCCCCC.css",
                        "/", "/index.html", "/user/userList", "/goform", "/goform/chklogin", "/app-AAAAAAAA.jsx", "/app"};
  unsigned i;
  for (i = 0; i < sizeof uris / sizeof uris[0]; i++) printf("%s %s %s\\n", uris[i], p(console_file_find(uris[i])), p(console_file_for_uri(uris[i])));
  printf("%s %s %u %u %d\\n", console_index->path, console_index->cache_control, CONSOLE_FILE_COUNT, CONSOLE_DATA_BYTES, console_files[0].gzip);
  printf("%s\\n", console_files[1].etag);
  return 0;
}
`,
  );
  const cc = spawnSync('gcc', ['-std=c99', '-Wall', '-Wextra', '-pedantic', '-Werror', '-I', dir, join(dir, 'main.c'), join(dir, 'console_files.c'), '-o', join(dir, 'main')], { encoding: 'utf8' });
  assert.is(cc.status, 0, cc.stderr);
  const out = spawnSync(join(dir, 'main'), { encoding: 'utf8' }).stdout.trim().split('\n');
  assert.equal(out.slice(0, 11), [
    '/app-AAAAAAAA.js /app-AAAAAAAA.js /app-AAAAAAAA.js',
    '/app-AAAAAAAA.js?v=2 /app-AAAAAAAA.js /app-AAAAAAAA.js',
    '/c-BBBBBBBB.js#x /c-BBBBBBBB.js /c-BBBBBBBB.js',
    '/layout-CCCCCCCC.css /layout-CCCCCCCC.css /layout-CCCCCCCC.css',
    '/ NULL /index.html',
    '/index.html /index.html /index.html',
    '/user/userList NULL /index.html',
    '/goform NULL /index.html',
    '/goform/chklogin NULL NULL',
    '/app-AAAAAAAA.jsx NULL /index.html',
    '/app NULL /index.html',
  ]);
  assert.is(out[11], '/index.html no-cache 4 12 1');
  // Sorted by path: /app-…, /c-…, /index.html, /layout-…; the ETag is the manifest's SHA-256, quoted.
  assert.is(out[12], etagOf(files[2].sha256));
});

test.run();
