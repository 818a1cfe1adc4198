// Build step 5, compression. In: a brand's files by served name
// (build/site.ts). Out: the gzip bytes of each, in name order: zopfli, which
// a terminal's web server sends as they are (Content-Encoding: gzip).
//
// zopfli is most of a build's time (about 13 s of 15 on the two-core machine), and its output
// is a function of the bytes in and its settings alone. So what it made is kept on disk by
// the SHA-256 of those, and a later build of the same bytes reads it back
// (node_modules/.cache/console-gzip/, or BUILD_GZIP_CACHE; `--no-cache` compresses everything
// afresh). A kept file is used only if it unpacks to the very bytes it stands for; anything else
// is compressed again and replaced.
import { gzipAsync } from '@gfx/zopfli';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { ROOT } from './project.ts';

export type Compress = (files: Map<string, Uint8Array>) => Promise<Map<string, Buffer>>;

/** zopfli's settings: part of every kept file's key, so a change of them compresses afresh. */
const ZOPFLI = { numiterations: 15 };
const ZOPFLI_VERSION: string = JSON.parse(readFileSync(join(ROOT, 'node_modules/@gfx/zopfli/package.json'), 'utf8')).version;

/** Where kept gzip files go: BUILD_GZIP_CACHE, else under node_modules/.cache (never committed, gone with node_modules). */
export function gzipCacheDir(): string {
  return process.env.BUILD_GZIP_CACHE || join(ROOT, 'node_modules', '.cache', 'console-gzip');
}

/** What was kept for `data`, if it unpacks to exactly `data`. */
function kept(file: string, data: Uint8Array): Buffer | undefined {
  try {
    const gz = readFileSync(file);
    return gunzipSync(gz).equals(data) ? gz : undefined;
  } catch {
    return undefined; // not kept yet, or not a gzip file: compress
  }
}

/** Keep `gz` under `file`: written aside, then renamed, so a build beside this one reads a whole file or none. */
function keep(file: string, gz: Uint8Array): void {
  try {
    const aside = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    writeFileSync(aside, gz);
    renameSync(aside, file);
  } catch {
    // A cache that cannot be written only costs time.
  }
}

/**
 * The step, one per build: a function that compresses a brand's files. `cache`: the folder of kept
 * gzip files (gzipCacheDir()), or false to compress every file afresh.
 */
export function compressor(cache: string | false = gzipCacheDir()): Compress {
  // Each distinct content once per build: the brands share all but their index.html, logo and
  // favicon (the bundle and the catalogues are the same bytes).
  const compressed = new Map<string, Promise<Uint8Array>>();
  if (cache) mkdirSync(cache, { recursive: true });
  const zopfli = (data: Uint8Array): Promise<Uint8Array> => {
    const key = createHash('sha256').update(`zopfli ${ZOPFLI_VERSION} ${JSON.stringify(ZOPFLI)}\n`).update(data).digest('hex');
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
