// `npm run flash`: what the console costs in a terminal's flash, per brand and
// per locale subset, from the build's own table (gzip bytes of the set, its
// third-party notices included), and the C table's object size (gcc -Os,
// x86-64; a 32-bit MCU's table rows are smaller). Prints Markdown for
// docs/EMBEDDING.md. About two minutes.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from '../build.ts';
import { allBrands, defaultBrand } from './project.ts';
import { writeCTable } from './c-table.ts';

const SUBSETS = [['en'], ['en', 'zh'], ['en', 'es', 'fr', 'de', 'it', 'pt'], ['en', 'ar', 'he', 'fa'], ['en', 'zh', 'ja', 'ko', 'th', 'vi']];

/** Bytes gcc -Os puts in the object's sections (text, data, rodata), as `size` counts them. */
function objectBytes(dir: string): number | undefined {
  const obj = join(dir, 'console_files.o');
  const cc = spawnSync('gcc', ['-std=c99', '-Os', '-c', join(dir, 'console_files.c'), '-o', obj], { encoding: 'utf8' });
  if (cc.status !== 0) return undefined;
  const size = spawnSync('size', [obj], { encoding: 'utf8' });
  const row = size.stdout.trim().split('\n')[1]?.trim().split(/\s+/);
  return row ? Number(row[3]) : undefined;
}

const out = mkdtempSync(join(tmpdir(), 'console-flash-'));
const kb = (n: number) => `${n.toLocaleString('en')}`;
try {
  const all = await build({ out: join(out, 'all'), quiet: true });
  console.log('| brand | English only | all 23 locales |\n|---|---:|---:|');
  // The set as it goes into flash: the console and its third-party notices.
  for (const r of all) console.log(`| ${r.brand} | ${kb(r.totalEnglish + r.notices)} | ${kb(r.total)} |`);

  const brand = defaultBrand();
  console.log(`\n| locales (brand ${brand}) | set (gzip bytes) | C table object (gcc -Os) |\n|---|---:|---:|`);
  for (const locales of [...SUBSETS, undefined]) {
    const dir = join(out, `subset-${locales?.join('-') ?? 'all'}`);
    const [r] = await build({ brands: [brand], locales: locales ? [...locales] : undefined, out: dir, quiet: true, extract: false });
    const c = join(dir, 'c');
    writeCTable(join(dir, brand), c);
    const obj = objectBytes(c);
    console.log(`| ${locales ? locales.join(', ') : 'all 23'} | ${kb(r.total)} | ${obj === undefined ? 'gcc missing' : kb(obj)} |`);
  }
  if (allBrands().length !== all.length) throw new Error('a brand was not built');
} finally {
  rmSync(out, { recursive: true, force: true });
}
