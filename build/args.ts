// The one way the project's command lines read their arguments (issue 32):
// Node's util.parseArgs, strict, so a misspelt or unknown option is refused
// instead of ignored, in one line that names the options the command takes;
// --help prints the command's usage and exits 0. Each command keeps its own
// checks of the values (a port, a list of servers) after this. It sits with
// the build because the build's command line is the lowest part that has one
// (tests/repo/structure.test.ts, LAYERS): every other command can import it.
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';

type Parsed<O extends ParseArgsOptionsConfig, P extends boolean> = ReturnType<typeof parseArgs<{ args: string[]; options: O; strict: true; allowPositionals: P }>>;

/**
 * `argv` read against `options`; `positionals`: whether words that are not
 * options are taken (as `positionals`). Throws an Error with one line saying
 * what is wrong when the command line does not fit.
 */
export function readArgs<const O extends ParseArgsOptionsConfig, const P extends boolean = false>(argv: string[], options: O, usage: string, positionals?: P): Parsed<O, P> {
  const end = argv.indexOf('--');
  if ((end < 0 ? argv : argv.slice(0, end)).includes('--help')) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: positionals ?? false }) as Parsed<O, P>;
  } catch (err) {
    if (!String((err as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS_')) throw err;
    // Node's own message is several lines about its parser; say it in the command's terms instead.
    throw new Error(refusal(argv, options, positionals ?? false) ?? (err as Error).message.split('\n')[0]);
  }
}

/** Why parseArgs refused `argv`: the first word that does not fit, and the options there are. */
function refusal(argv: string[], options: ParseArgsOptionsConfig, positionals: boolean): string | undefined {
  const names = [...Object.keys(options), 'help'].map((k) => `--${k}`).join(', ');
  const { tokens } = parseArgs({ args: argv, options, strict: false, allowPositionals: true, tokens: true });
  for (const t of tokens) {
    if (t.kind === 'positional' && !positionals) return `unexpected argument ${t.value} (use ${names})`;
    if (t.kind !== 'option') continue;
    const type = Object.hasOwn(options, t.name) ? options[t.name].type : undefined;
    if (!type) return `unknown option ${t.rawName} (use ${names})`;
    if (type === 'boolean' && t.value !== undefined) return `${t.rawName} takes no value`;
    // A value after a space that starts with a dash is most likely the next option, the value forgotten.
    if (type === 'string' && (t.value === undefined || (!t.inlineValue && t.value.startsWith('-')))) return `${t.rawName} needs a value${t.value === undefined ? '' : ` (one that starts with a dash: ${t.rawName}=${t.value})`}`;
  }
  return undefined;
}

/**
 * For a program's top level: `read()`, or, when it throws (a refused
 * command line, a value the command does not take), `<name>: <why>` on
 * stderr and exit `status`.
 */
export function argsOrExit<T>(name: string, status: number, read: () => T): T {
  try {
    return read();
  } catch (err) {
    console.error(`${name}: ${(err as Error).message}`);
    process.exit(status);
  }
}
