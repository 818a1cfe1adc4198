// What an esbuild metafile says is in the output, read here on its own and
// not with build/papers.ts, so that the tests of the notices and the SBOM
// compare the build's list with a second reading of the same metafile.
import type { Metafile } from 'esbuild';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export interface InOutput {
  name: string;
  version: string;
  /** package.json's license. */
  license: string;
  /** The package's folder, absolute. */
  dir: string;
  /** Its key in package-lock.json: from the first node_modules/ of its path. */
  lockKey: string;
}

/** Every package with a file that left bytes in some output, by name@version. */
export function packagesInOutput(meta: Metafile, root: string): Map<string, InOutput> {
  const found = new Map<string, InOutput>();
  for (const out of Object.values(meta.outputs))
    for (const [input, info] of Object.entries(out.inputs)) {
      if (!info.bytesInOutput) continue;
      const m = /^(.*\/node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(resolve(root, input).split('\\').join('/'));
      if (!m) continue;
      const dir = m[1];
      const pkg = JSON.parse(readFileSync(`${dir}/package.json`, 'utf8'));
      found.set(`${pkg.name}@${pkg.version}`, { name: pkg.name, version: pkg.version, license: pkg.license, dir, lockKey: dir.slice(dir.indexOf('node_modules/')) });
    }
  return found;
}

/** Every package that has a file among the metafile's inputs, in the output or not. */
export function packagesRead(meta: Metafile): Set<string> {
  return new Set(Object.keys(meta.inputs).flatMap((p) => /^(?:.*\/)?node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(p)?.slice(1, 2) ?? []));
}
