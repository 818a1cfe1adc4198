// The compression step (build/compress.ts): zopfli's output, kept on disk by
// content, is the same bytes as compressing afresh, and a kept file that is
// damaged or stands for other bytes is never used; zopfli itself runs on worker threads.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { compressor } from '../../build/compress.ts';

const files = new Map<string, Uint8Array>([
  ['b.js', Buffer.from('export const b = "' + 'console '.repeat(400) + '";\n')],
  ['a.css', Buffer.from('body{margin:0}'.repeat(50))],
  ['same.txt', Buffer.from('body{margin:0}'.repeat(50))],
]);

test('kept files give the bytes a fresh compression gives, in name order; one kept file per content', async () => {
  const cache = mkdtempSync(join(tmpdir(), 'gzip-cache-'));
  const fresh = await compressor(false)(files);
  const first = await compressor(cache)(files);
  assert.equal([...fresh.keys()], ['a.css', 'b.js', 'same.txt']);
  assert.is(readdirSync(cache).length, 2, 'two contents, two kept files');
  const again = await compressor(cache)(files);
  for (const [name, gz] of fresh) {
    assert.ok(gunzipSync(gz).equals(Buffer.from(files.get(name)!)), name);
    assert.ok(first.get(name)!.equals(gz), `${name}: compressed into the cache as afresh`);
    assert.ok(again.get(name)!.equals(gz), `${name}: read back from the cache as afresh`);
  }
});

test('a damaged kept file, or one that unpacks to other bytes, is compressed again and replaced', async () => {
  const cache = mkdtempSync(join(tmpdir(), 'gzip-cache-'));
  const fresh = await compressor(false)(files);
  await compressor(cache)(files);
  const [one, two] = readdirSync(cache).sort();
  writeFileSync(join(cache, one), 'not gzip');
  writeFileSync(join(cache, two), gzipSync('other bytes'));
  const out = await compressor(cache)(files);
  for (const [name, gz] of fresh) assert.ok(out.get(name)!.equals(gz), name);
  const healed = await compressor(cache)(files);
  for (const [name, gz] of fresh) assert.ok(healed.get(name)!.equals(gz), `${name}: the kept file was replaced`);
  assert.equal(readdirSync(cache).sort(), [one, two], 'nothing left aside');
});

test('zopfli runs on worker threads, never on the thread that builds', async () => {
  const big = new Map([['big.js', Buffer.from(Array.from({ length: 4000 }, (_, i) => `export const v${i} = ${i * 7919};\n`).join(''))]]);
  const gz = await compressor(false)(big);
  assert.ok(gunzipSync(gz.get('big.js')!).equals(big.get('big.js')!));
  const zopfli = createRequire(import.meta.url).resolve('@gfx/zopfli');
  assert.not.ok(Object.keys(createRequire(import.meta.url).cache).includes(zopfli), '@gfx/zopfli was loaded on this thread');
});

test.run();
