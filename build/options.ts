// The build's options: what `npm run build -- ...` takes (build.ts lists the
// flags), and what the scripts and tests that call build() pass.
import { SERVERS, type ServerKind } from './servers.ts';

export interface BuildOptions {
  brands?: string[];
  locales?: string[];
  out?: string;
  /** Size budget file (default size-budget.json). */
  budget?: string;
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

/** `npm run build -- <flags>`: the flags build.ts's header lists. */
export function parseArgs(argv: string[]): BuildOptions {
  const o: BuildOptions = {};
  for (let i = 0; i < argv.length; i++) {
    const [flag, inlineValue] = argv[i].split('=', 2);
    const value = () => inlineValue ?? argv[++i];
    const list = () => value().split(',').map((s) => s.trim()).filter(Boolean);
    if (flag === '--brand' || flag === '--brands') o.brands = list();
    else if (flag === '--locales' || flag === '--locale') o.locales = list();
    else if (flag === '--out') o.out = value();
    else if (flag === '--budget') o.budget = value();
    else if (flag === '--no-extract') o.extract = false;
    else if (flag === '--quiet') o.quiet = true;
    else if (flag === '--react') o.react = true;
    else if (flag === '--server' || flag === '--servers') {
      const kinds = list();
      const bad = kinds.filter((k) => !(SERVERS as readonly string[]).includes(k));
      if (bad.length || !kinds.length) throw new Error(`--server ${bad.join(',')}: use ${SERVERS.join(', ')} (comma-separated for several)`);
      o.servers = kinds as ServerKind[];
    } else if (flag === '--root') o.serverRoot = value();
    else if (flag === '--listen') o.listen = value();
    else if (flag === '--https') o.https = value();
    else if (flag === '--api') o.api = value();
    else if (flag === '--etc') o.etc = value();
    else if (flag === '--c-table') o.cTable = true;
    else throw new Error(`unknown option ${argv[i]} (use --brand, --locales, --out, --budget, --no-extract, --quiet, --react, --server, --root, --listen, --https, --api, --etc, --c-table)`);
  }
  return o;
}
