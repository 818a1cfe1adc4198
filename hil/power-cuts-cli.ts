// `npm run test:board`: power cuts on the virtual board (hil/power-cuts.ts).
// Prints a line per cut and ends with one line, e.g. `50 cuts: 23 old, 27 new, 0 broken`;
// the exit status is 1 if any cut left the board broken, 2 if it could not run.
//   npm run test:board -- [--cuts 50] [--seed N] [--phase transfer|unpack|swap|prune]... [--protocol zmodem|ymodem]... [--brand ia] [--console-profile path.json] [--accel kvm|tcg]
import { resolve } from 'node:path';
import { ensureBuilt } from '../build.ts';
import { argsOrExit, readArgs } from '../build/args.ts';
import { isProtocol } from '../serial/transfer.ts';
import { PHASES, runCuts, type Phase } from './power-cuts.ts';
import { missingHostTools } from '../board/packages.ts';

const USAGE = `usage: npm run test:board -- [--cuts 50] [--seed N] [--phase ${PHASES.join('|')}]... [--protocol zmodem|ymodem]... [--brand ia] [--console-profile board] [--accel kvm|tcg]
Power cuts on the virtual board, each checked; --phase and --protocol may be given more than once (one picked for each cut).`;

const OPTIONS = {
  cuts: { type: 'string' },
  seed: { type: 'string' },
  phase: { type: 'string', multiple: true },
  protocol: { type: 'string', multiple: true },
  brand: { type: 'string' },
  'console-profile': { type: 'string' },
  accel: { type: 'string' },
} as const;

const { cuts, seed, phases, protocols, brand, consoleProfile, accel } = argsOrExit('test:board', 2, () => {
  const { values } = readArgs(process.argv.slice(2), OPTIONS, USAGE);
  const int = (name: string, v: string) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0) throw new Error(`${name} takes a whole number`);
    return n;
  };
  if (values.accel !== undefined && values.accel !== 'kvm' && values.accel !== 'tcg') throw new Error('--accel takes kvm or tcg');
  const protocols = values.protocol ?? [];
  if (!protocols.every(isProtocol)) throw new Error('--protocol takes zmodem or ymodem (twice: both, one picked for each cut)');
  const phases = (values.phase ?? []) as Phase[];
  if (phases.some((p) => !PHASES.includes(p))) throw new Error(`--phase takes ${PHASES.join(', ')}`);
  const p = values['console-profile'];
  return {
    cuts: values.cuts !== undefined ? int('--cuts', values.cuts) : 50,
    seed: values.seed !== undefined ? int('--seed', values.seed) : undefined,
    phases,
    protocols,
    brand: values.brand ?? 'ia',
    // A file is named from where the command runs; a name is one of serial/console-profiles/.
    consoleProfile: p !== undefined && p.endsWith('.json') ? resolve(p) : p,
    accel: values.accel as 'kvm' | 'tcg' | undefined,
  };
});
const missing = missingHostTools();
if (missing) {
  console.error(`test:board: missing host tools: ${missing}`);
  process.exit(2);
}
await ensureBuilt(brand, { quiet: true });
const stop = () => process.exit(130); // the board's QEMU goes with this process (setpriv --pdeathsig)
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
try {
  const r = await runCuts({ cuts, seed, phases: phases.length ? phases : undefined, protocols, brand, profile: consoleProfile, accel });
  console.log(r.summary);
  process.exit(r.broken ? 1 : 0);
} catch (e) {
  console.error(`test:board: ${(e as Error).message}`);
  process.exit(2);
}
