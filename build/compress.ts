// Build step 5, compression. In: a brand's files by served name
// (build/site.ts). Out: the gzip bytes of each, in name order: zopfli, which
// a terminal's web server sends as they are (Content-Encoding: gzip).
//
// zopfli is most of a build's time (about 13 s of 15 on the two-core machine), and its output
// is a function of the bytes in and its settings alone. So what it made is kept by the SHA-256 of
// those (build/kept.ts), and a later build of the same bytes reads it back. A kept file is used
// only if it unpacks to the very bytes it stands for; anything else is compressed again and replaced.
// What is left to compress is shared out among worker threads, one per core: zopfli runs in
// WebAssembly on the thread that calls it, so one thread left the other core idle for most of
// a cold build.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { gunzipSync } from 'node:zlib';
import { keep, keptDir, keyOf, readKept } from './kept.ts';
import { ROOT } from './project.ts';

export type Compress = (files: Map<string, Uint8Array>) => Promise<Map<string, Buffer>>;

/** zopfli's settings: part of every kept file's key, so a change of them compresses afresh. */
const ZOPFLI = { numiterations: 15 };
const ZOPFLI_VERSION: string = JSON.parse(readFileSync(join(ROOT, 'node_modules/@gfx/zopfli/package.json'), 'utf8')).version;

/**
 * A worker's code: zopfli on each file posted to it. Plain JavaScript, because Node 20 starts a
 * worker thread without tsx's hooks (no TypeScript there); it is only this call.
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { gzip } = require(${JSON.stringify(createRequire(import.meta.url).resolve('@gfx/zopfli'))});
parentPort.on('message', ({ data, options }) =>
  gzip(data, options, (error, gz) => parentPort.postMessage({ error: error ? String(error) : '', gz })));
`;

/** The threads that compress, started on the first file to compress and kept for the process, which they never hold open. */
class ZopfliThreads {
  private readonly idle: Worker[] = [];
  private readonly queue: Array<{ data: Uint8Array; done: (gz: Uint8Array) => void; fail: (e: Error) => void }> = [];
  private readonly running = new Map<Worker, { done: (gz: Uint8Array) => void; fail: (e: Error) => void }>();
  private started = 0;

  constructor(private readonly size: number) {}

  gzip(data: Uint8Array): Promise<Uint8Array> {
    return new Promise((done, fail) => {
      this.queue.push({ data, done, fail });
      this.next();
    });
  }

  private next(): void {
    if (!this.queue.length) return;
    if (!this.idle.length && this.started < this.size) this.idle.push(this.start());
    const worker = this.idle.pop();
    if (!worker) return;
    const task = this.queue.shift()!;
    this.running.set(worker, task);
    worker.ref();
    worker.postMessage({ data: task.data, options: ZOPFLI });
  }

  private start(): Worker {
    this.started++;
    const worker = new Worker(WORKER_SOURCE, { eval: true });
    worker.on('message', ({ error, gz }: { error: string; gz: Uint8Array }) => {
      const task = this.running.get(worker)!;
      this.running.delete(worker);
      worker.unref();
      this.idle.push(worker);
      if (error) task.fail(new Error(`zopfli: ${error}`));
      else task.done(gz);
      this.next();
    });
    worker.on('error', (e) => {
      this.running.get(worker)?.fail(e instanceof Error ? e : new Error(String(e)));
      this.running.delete(worker);
      this.started--;
      this.next();
    });
    return worker;
  }
}

let threads: ZopfliThreads | undefined;
/** zopfli's gzip of `data` on one of the threads. */
const zopfliGzip = (data: Uint8Array) => (threads ??= new ZopfliThreads(availableParallelism())).gzip(data);

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
        : zopfliGzip(data).then((gz) => {
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
