// Build step 9, embedding (--server, --c-table). In: a brand's folder and
// manifest (build/manifest.ts) and the options. Out: <out>/embed/<brand>/:
// web servers' configurations (build/servers.ts) and the set as a C table
// (build/c-table.ts), as docs/EMBEDDING.md describes.
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { writeCTable } from './c-table.ts';
import type { Manifest } from './manifest.ts';
import type { BuildOptions } from './options.ts';
import { ROOT } from './project.ts';
import { SERVER_DEFAULTS, serverFiles } from './servers.ts';

/** --server and --c-table: what a firmware engineer copies into the terminal's image. */
export function writeEmbedding(o: BuildOptions, siteDir: string, dir: string, manifest: Manifest, quiet: boolean): void {
  if (!o.servers?.length && !o.cTable) return;
  mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  for (const kind of o.servers ?? []) {
    const files = serverFiles(kind, {
      brand: manifest.brand,
      version: manifest.version,
      csp: manifest.csp,
      root: o.serverRoot ?? SERVER_DEFAULTS.root,
      listen: o.listen ?? SERVER_DEFAULTS.listen,
      https: o.https ?? SERVER_DEFAULTS.https,
      api: o.api ?? SERVER_DEFAULTS.api,
      etc: o.etc ?? SERVER_DEFAULTS.etc,
    });
    for (const [name, text] of files) writeFileSync(join(dir, name), text);
    written.push(files.map(([name]) => name).join(', '));
  }
  if (o.cTable) {
    const c = writeCTable(siteDir, dir);
    written.push(`${basename(c.header)}, ${basename(c.source)} (${c.bytes} bytes of file data)`);
  }
  if (!quiet) console.log(`${relative(ROOT, dir) || dir}: ${written.join('; ')}`);
}
