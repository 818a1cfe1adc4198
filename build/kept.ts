// What a build step made, kept on disk by the SHA-256 of everything it was made from, so that a
// later build of the same inputs reads it back instead of making it again: zopfli's gzip bytes
// (build/compress.ts) and Lingui's extracted and compiled catalogues (build/catalogues.ts).
// Under node_modules/.cache/console/<kind>/ (never committed, gone with node_modules), or
// BUILD_CACHE/<kind>/. `npm run build -- --no-cache` makes everything afresh.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './project.ts';

/** The folder of one kind of kept output (made if missing). */
export function keptDir(kind: 'gzip' | 'catalogues'): string {
  const dir = join(process.env.BUILD_CACHE || join(ROOT, 'node_modules', '.cache', 'console'), kind);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** The hex SHA-256 of the parts, each length-prefixed so that no two lists of parts give the same bytes. */
export function keyOf(parts: Iterable<string | Uint8Array>): string {
  const h = createHash('sha256');
  for (const p of parts) {
    const bytes = typeof p === 'string' ? Buffer.from(p) : p;
    h.update(`${bytes.length}:`).update(bytes);
  }
  return h.digest('hex');
}

/** The bytes kept under `file`, or undefined when there are none. */
export function readKept(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Keep `bytes` under `file`: written aside, then renamed, so a build beside this one reads a whole file or none. */
export function keep(file: string, bytes: Uint8Array): void {
  try {
    const aside = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    writeFileSync(aside, bytes);
    renameSync(aside, file);
  } catch {
    // A cache that cannot be written only costs time.
  }
}

/**
 * Only the `newest` files of `dir` by time written are left (a kept output is rewritten by nothing,
 * so that is when it was made). For outputs that stand for a whole source tree (the catalogues,
 * a few MB each), which every edit of a source makes anew.
 */
export function prune(dir: string, newest: number): void {
  try {
    const files = readdirSync(dir).map((name) => ({ name, t: statSync(join(dir, name)).mtimeMs }));
    for (const f of files.sort((a, b) => b.t - a.t).slice(newest)) rmSync(join(dir, f.name), { force: true });
  } catch {
    // A file another build removed first, or a folder that cannot be read: nothing to do.
  }
}
