// Build step 5, compression. In: a brand's files by served name
// (build/site.ts). Out: the gzip bytes of each, in name order: zopfli, which
// a terminal's web server sends as they are (Content-Encoding: gzip).
import { gzipAsync } from '@gfx/zopfli';
import { createHash } from 'node:crypto';

export type Compress = (files: Map<string, Uint8Array>) => Promise<Map<string, Buffer>>;

/** The step, one per build: a function that compresses a brand's files. */
export function compressor(): Compress {
  // Compress each distinct content once per build: the brands share all but their index.html, logo and
  // favicon (the bundle and the catalogues are the same bytes), and zopfli is most of a build's time.
  // Per build, not per process: two builds still compress on their own (tests/build/build.test.ts compares them).
  const compressed = new Map<string, Promise<Uint8Array>>();
  const zopfli = (data: Uint8Array): Promise<Uint8Array> => {
    const key = createHash('sha256').update(data).digest('hex');
    let z = compressed.get(key);
    if (!z) compressed.set(key, (z = gzipAsync(data, { numiterations: 15 })));
    return z;
  };
  return async (files) => {
    const names = [...files.keys()].sort();
    const gz = await Promise.all(names.map((n) => zopfli(files.get(n)!)));
    return new Map(names.map((n, i) => [n, Buffer.from(gz[i])]));
  };
}
