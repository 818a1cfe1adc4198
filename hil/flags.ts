// Command-line flags of the project's small CLIs (npm start, npm run board):
// --name value, --name=value, or a bare --name (true).
export function parseFlags(argv: string[]): Record<string, string | true> {
  const out: Record<string, string | true> = Object.create(null);
  for (let i = 0; i < argv.length; i++) {
    const m = /^--([^=]+)(?:=(.*))?$/.exec(argv[i]);
    if (!m) throw new Error(`unexpected argument ${argv[i]}`);
    const next = argv[i + 1];
    out[m[1]] = m[2] ?? (next && !next.startsWith('--') ? (i++, next) : true);
  }
  return out;
}
