// The build's options: what `npm run build -- ...` takes (build.ts lists the
// flags), and what the scripts and tests that call build() pass.
import { readArgs } from './args.ts';
import { SERVER_DEFAULTS, SERVERS, type ServerKind } from './servers.ts';

export interface BuildOptions {
  brands?: string[];
  locales?: string[];
  out?: string;
  /** Size budget file (default size-budget.json). */
  budget?: string;
  /** Licence policy file (default licence-policy.json): the licences a bundled package may be under (build/papers.ts). */
  licences?: string;
  /** false: compress every file afresh instead of reading what an earlier build kept (build/compress.ts). */
  cache?: boolean;
  /** Skip `lingui extract` (tests that build twice extract once). */
  extract?: boolean;
  quiet?: boolean;
  /**
   * Build with React 19 and react-dom instead of preact/compat: proof that the
   * source is React code, and the measure of what Preact saves. Never flashed;
   * the size budget is reported against but not enforced.
   */
  react?: boolean;
  /** Also write these web servers' configurations to <out>/embed/<brand>/ (build/servers.ts). */
  servers?: ServerKind[];
  /** The configurations' install path, HTTP and HTTPS listen addresses, API address and the device's folder (certificate, access file). */
  serverRoot?: string;
  listen?: string;
  https?: string;
  api?: string;
  etc?: string;
  /** Also write the set as a C99 table to <out>/embed/<brand>/ (build/c-table.ts). */
  cTable?: boolean;
}

const USAGE = `usage: npm run build -- [--brand B,...] [--locales L,...] [--out dist] [--budget size-budget.json] [--licences licence-policy.json] [--no-extract] [--no-cache] [--quiet] [--react]
       [--server ${SERVERS.join(',')} [--root ${SERVER_DEFAULTS.root}] [--listen ${SERVER_DEFAULTS.listen}] [--https ${SERVER_DEFAULTS.https}] [--api ${SERVER_DEFAULTS.api}] [--etc ${SERVER_DEFAULTS.etc}]] [--c-table]
Every brand and every locale (English always) into dist/<brand>/, with the size table; build.ts's header says more.`;

const OPTIONS = {
  brand: { type: 'string' },
  locales: { type: 'string' },
  out: { type: 'string' },
  budget: { type: 'string' },
  licences: { type: 'string' },
  'no-extract': { type: 'boolean' },
  'no-cache': { type: 'boolean' },
  quiet: { type: 'boolean' },
  react: { type: 'boolean' },
  server: { type: 'string' },
  root: { type: 'string' },
  listen: { type: 'string' },
  https: { type: 'string' },
  api: { type: 'string' },
  etc: { type: 'string' },
  'c-table': { type: 'boolean' },
} as const;

/** `npm run build -- <flags>`: the flags build.ts's header lists. */
export function parseArgs(argv: string[]): BuildOptions {
  const { values: v } = readArgs(argv, OPTIONS, USAGE);
  const list = (value: string) => value.split(',').map((s) => s.trim()).filter(Boolean);
  const o: BuildOptions = {};
  if (v.brand !== undefined) o.brands = list(v.brand);
  if (v.locales !== undefined) o.locales = list(v.locales);
  if (v.out !== undefined) o.out = v.out;
  if (v.budget !== undefined) o.budget = v.budget;
  if (v.licences !== undefined) o.licences = v.licences;
  if (v['no-extract']) o.extract = false;
  if (v['no-cache']) o.cache = false;
  if (v.quiet) o.quiet = true;
  if (v.react) o.react = true;
  if (v.server !== undefined) {
    const kinds = list(v.server);
    const bad = kinds.filter((k) => !(SERVERS as readonly string[]).includes(k));
    if (bad.length || !kinds.length) throw new Error(`--server ${bad.join(',')}: use ${SERVERS.join(', ')} (comma-separated for several)`);
    o.servers = kinds as ServerKind[];
  }
  if (v.root !== undefined) o.serverRoot = v.root;
  if (v.listen !== undefined) o.listen = v.listen;
  if (v.https !== undefined) o.https = v.https;
  if (v.api !== undefined) o.api = v.api;
  if (v.etc !== undefined) o.etc = v.etc;
  if (v['c-table']) o.cTable = true;
  return o;
}
