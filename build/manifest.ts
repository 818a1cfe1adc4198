// Build step 6, the manifest. In: a brand's files (build/site.ts) and their
// gzip bytes (build/compress.ts). Out: <out>/<brand>/, what goes into a
// terminal's flash: each file as <name>.gz, and manifest.json listing them.
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { VERSION } from './project.ts';
import type { BrandSite } from './site.ts';

export interface ManifestFile {
  path: string;
  bytes: number;
  gzipBytes: number;
  sha256: string;
}
export interface Manifest {
  brand: string;
  version: string;
  /** The Content-Security-Policy header a server sends with the set (build/serving.ts cspFor; index.html carries its meta form). */
  csp: string;
  files: ManifestFile[];
}

/** The step: write the brand's folder afresh, and its manifest. */
export function writeSet(outDir: string, site: BrandSite, gz: Map<string, Buffer>): Manifest {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const manifest: Manifest = { brand: site.brand, version: VERSION, csp: site.csp, files: [] };
  for (const [n, z] of gz) {
    writeFileSync(join(outDir, `${n}.gz`), z);
    manifest.files.push({
      path: n,
      bytes: site.files.get(n)!.length,
      gzipBytes: z.length,
      sha256: createHash('sha256').update(z).digest('hex'),
    });
  }
  writeFileSync(join(outDir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  return manifest;
}
