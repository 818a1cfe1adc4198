// Build step 5, compression. In: a brand's files by served name
// (build/site.ts). Out: the gzip bytes of each, in name order: zopfli, which
// a terminal's web server sends as they are (Content-Encoding: gzip).
//
// zopfli is most of a build's time (about 13 s of 15 on the two-core machine), and its output
// is a function of the bytes in and its settings alone. So what it made is kept by the SHA-256 of
// those (build/kept.ts), and a later build of the same bytes reads it back. A kept file is used
// only if it unpacks to the very bytes it stands for; anything else is compressed again and replaced.
import { gzipAsync } from '@gfx/zopfli';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { keep, keptDir, keyOf, readKept } from './kept.ts';
import { ROOT } from './project.ts';

export type Compress = (files: Map<string, Uint8Array>) => Promise<Map<string, Buffer>>;

/** zopfli's settings: part of every kept file's key, so a change of them compresses afresh. */
const ZOPFLI = { numiterations: 15 };
const ZOPFLI_VERSION: string = JSON.parse(readFileSync(join(ROOT, 'node_modules/@gfx/zopfli/package.json'), 'utf8')).version;

/** What was kept for `data`, if it unpacks to exactly `data`. */
function kept(file: string, data: Uint8Array): Buffer | undefined {
  const gz = readKept(file);
  try {
    return gz && gunzipSync(gz).equals(data) ? gz : undefined;
  } catch {
    return undefined; // not a gzip file: compress
  }
}

/**
 * The step, one per build: a function that compresses a brand's files. `cache`: the folder of kept
 * gzip files (keptDir('gzip')), or false to compress every file afresh.
 */
export function compressor(cache: string | false = keptDir('gzip')): Compress {
  // Each distinct content once per build: the brands share all but their index.html, logo and
  // favicon (the bundle and the catalogues are the same bytes).
  const compressed = new Map<string, Promise<Uint8Array>>();
  const zopfli = (data: Uint8Array): Promise<Uint8Array> => {
    const key = keyOf([`zopfli ${ZOPFLI_VERSION} ${JSON.stringify(ZOPFLI)}`, data]);
    let z = compressed.get(key);
    if (!z) {
      const file = cache ? join(cache, `${key}.gz`) : '';
      const old = cache ? kept(file, data) : undefined;
      z = old
        ? Promise.resolve(old)
        : gzipAsync(data, ZOPFLI).then((gz) => {
            if (cache) keep(file, gz);
            return gz;
          });
      compressed.set(key, z);
    }
    return z;
  };
  return async (files) => {
    const names = [...files.keys()].sort();
    const gz = await Promise.all(names.map((n) => zopfli(files.get(n)!)));
    return new Map(names.map((n, i) => [n, Buffer.from(gz[i])]));
  };
}
