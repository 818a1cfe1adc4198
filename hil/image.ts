// The flash image of one brand: dist/<brand>/ (its .gz files and
// manifest.json) as one ustar archive; see docs/HIL.md "Image format".
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeTar } from '../serial/tar.ts';

export interface FlashImage {
  name: string;
  data: Buffer;
  sha256: string;
  /** Folder name of this release on the terminal: <version>-<first 12 hex of the sha256>. */
  release: string;
  manifest: { brand: string; version: string; files: { path: string; bytes: number; gzipBytes: number; sha256: string }[] };
}

export function makeImage(siteDir: string): FlashImage {
  const manifest = JSON.parse(readFileSync(join(siteDir, 'manifest.json'), 'utf8')) as FlashImage['manifest'];
  const names = readdirSync(siteDir).filter((f) => f === 'manifest.json' || f.endsWith('.gz'));
  for (const f of manifest.files) if (!names.includes(`${f.path}.gz`)) throw new Error(`${siteDir}: ${f.path}.gz is in the manifest but missing`);
  const data = writeTar(names.map((name) => ({ name, data: readFileSync(join(siteDir, name)) })));
  const sha256 = createHash('sha256').update(data).digest('hex');
  const release = `${manifest.version}-${sha256.slice(0, 12)}`.replace(/[^\w.-]/g, '_');
  return { name: `console-${manifest.brand}.tar`, data, sha256, release, manifest };
}
