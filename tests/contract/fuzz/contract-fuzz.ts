// Contract-driven fuzzing of the /goform/ API (issue 13 §3).
//
// Every call of contract/index.ts is sent malformed inputs built from its
// own fields' kinds and constraints (wrong types, missing and unknown fields,
// boundaries and one past them, control characters, bad UTF-8, %-junk, bodies
// that are not JSON, mis-encodings, deep nesting, huge values and bodies) and
// valid ones built from the same constraints. A call or field added to the
// contract later is fuzzed without touching these files.
//
// What every answer must be: an envelope (a JSON object with an integer
// retvalue; a file for a call whose success is a file), never a 5xx, never a
// dropped connection, never later than the timeout. Malformed input answers a
// code this call documents (10003 / 10005, the codes its purpose and its
// fields' docs name, contract/codes.ts ADDED_CODES, the sign-in codes), and a
// refused write leaves the device as it was (its read-backs answer the same
// before and after). A valid write of a settings pair (POST Get<Name>)
// answers 0 and the read (GET Set<Name>) answers what was written.
//
// The oracle is the fuzzer's own reading of the contract (judgeValue and
// verdictOf in oracle.ts), stricter than the kinds alone on what no field takes:
// control characters, lone surrogates, bytes that are not UTF-8, days that do
// not exist, null. Where the contract leaves the answer open (-0, "1.0", a
// lone "%", a body that is a JSON string holding JSON, a field sent in another
// encoding's place) only the envelope is checked.
//
// Run it as one of the contract's suites (tests/contract/fuzz.test.ts starts its own
// simulated terminal), or against a terminal:
//   npx tsx tests/contract/fuzz/contract-fuzz.ts --url http://<terminal> [--allow-writes] [--runs N] [--seed S]
// Without --allow-writes only calls that change nothing are sent (reads, sign-in,
// the password check). See docs/HIL.md ("Fuzzing the API").
//
// The parts, each importing only those before it: contract.ts (the contract
// as the fuzzer reads it), oracle.ts (what a device must do with a request),
// values.ts and wire.ts, mutators.ts (the cases), run.ts (the properties),
// and this file (reporting and the command line).
import { pathToFileURL } from 'node:url';
import { readArgs } from '../../../build/args.ts';
import { NEVER_SENT } from './contract.ts';
import { fuzzContract, type Failure } from './run.ts';

// The run, from the entry point: fuzz.test.ts runs it against its own simulated terminal.
export { fuzzContract };

// ===========================================================================
// Reporting, and the command line

/** One failure, for a person: the problem, the request and reply, how to replay it, fast-check's report. */
export function formatFailure(f: Failure, baseSeed: number): string {
  return [
    `✘ ${f.id}: ${f.problem}`,
    ...f.detail.split('\n').slice(1),
    `  replay: FUZZ_SEED=${baseSeed} FUZZ_ONLY=${f.id}${f.path ? ` FUZZ_PATH=${f.path}` : ''} (fast-check seed ${f.seed}${f.path ? `, path ${f.path}` : ''})`,
    ...f.report.split('\n').map((l) => `  | ${l}`),
  ].join('\n');
}

/** FUZZ_SEED: a number, or "random" (a new seed, printed). Default 42. */
export function seedFrom(text: string | undefined): number {
  if (!text) return 42;
  if (text === 'random') return (Math.random() * 2 ** 31) | 0;
  const n = Number(text);
  if (!Number.isInteger(n)) throw new Error(`FUZZ_SEED / --seed: a whole number or "random", not ${JSON.stringify(text)}`);
  return n;
}

const USAGE = `Usage: npx tsx tests/contract/fuzz/contract-fuzz.ts --url http://<terminal> [--allow-writes] [--runs N] [--seed S|random]
         [--only call[:kind],...] [--skip call[:kind],...] [--path P] [--timeout ms] [--user admin] [--password 470213] [--no-shrink]
  --url           the terminal (or TERMINAL_URL)
  --allow-writes  also send calls that change the device: every call but ${Object.keys(NEVER_SENT).join(' and ')}
  --runs          random runs per property (one call, one kind of mutation), after its fixed examples (FUZZ_RUNS; default 4)
  --seed          base seed, or "random" (FUZZ_SEED; default 42)
  --only          only these calls or call:kind properties (FUZZ_ONLY), e.g. GetPrintParam:control,:oversize
  --skip          not these (FUZZ_SKIP), e.g. chklogin (wrong passwords close sign-in from this address for up to 15 min)
  --path          replay fast-check's path of one property (FUZZ_PATH; with --only and the same --seed)`;

const OPTIONS = {
  url: { type: 'string' },
  'allow-writes': { type: 'boolean' },
  runs: { type: 'string' },
  seed: { type: 'string' },
  only: { type: 'string' },
  skip: { type: 'string' },
  path: { type: 'string' },
  timeout: { type: 'string' },
  user: { type: 'string' },
  password: { type: 'string' },
  'no-shrink': { type: 'boolean' },
} as const;

async function main(argv: string[]): Promise<number> {
  const { values } = readArgs(argv, OPTIONS, USAGE);
  // Each option has its environment variable, for the unit test's runs and CI; the option wins.
  const str = (k: Exclude<keyof typeof OPTIONS, 'allow-writes' | 'no-shrink'>, env: string) => values[k] ?? process.env[env];
  const url = str('url', 'TERMINAL_URL');
  if (!url) throw new Error(`no terminal: --url or TERMINAL_URL\n${USAGE}`);
  const seed = seedFrom(str('seed', 'FUZZ_SEED'));
  const runs = Number(str('runs', 'FUZZ_RUNS') ?? 4);
  const only = str('only', 'FUZZ_ONLY')?.split(',').filter(Boolean);
  const skip = str('skip', 'FUZZ_SKIP')?.split(',').filter(Boolean);
  const allowWrites = values['allow-writes'] ?? false;
  console.log(`contract fuzz: ${url}, seed ${seed}, ${runs} runs per property, ${allowWrites ? 'writes allowed' : 'read-only calls only'}`);
  const result = await fuzzContract({
    url,
    allowWrites,
    runs,
    seed,
    only,
    skip,
    path: str('path', 'FUZZ_PATH'),
    timeoutMs: Number(str('timeout', 'FUZZ_TIMEOUT') ?? 10_000),
    username: str('user', 'FUZZ_USER'),
    password: str('password', 'FUZZ_PASSWORD'),
    shrink: !values['no-shrink'],
    log: (l) => console.log(l),
  });
  for (const s of result.skipped) console.log(`  not sent: ${s}`);
  for (const f of result.failures) console.log(`\n${formatFailure(f, seed)}`);
  console.log(`\n${result.properties} properties, ${result.requests} requests, ${(result.ms / 1000).toFixed(1)} s, ${result.failures.length} failing; seed ${seed}`);
  return result.failures.length ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: Error) => {
      console.error(err.message);
      process.exit(2);
    },
  );
}
