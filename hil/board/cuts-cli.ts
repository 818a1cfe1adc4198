// `npm run test:board`: power cuts on the virtual board (hil/board/cuts.ts).
// Prints a line per cut and ends with one line, e.g. `50 cuts: 23 old, 27 new, 0 broken`;
// the exit status is 1 if any cut left the board broken.
//   npm run test:board -- [--cuts 50] [--seed N] [--phase transfer|unpack|swap|prune]... [--protocol zmodem|ymodem]... [--brand ia] [--profile path.json] [--accel kvm|tcg]
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from '../../build.ts';
import { PHASES, runCuts, type Phase } from './cuts.ts';
import { ROOT, missingHostTools } from './packages.ts';

const argv = process.argv.slice(2);
let cuts = 50;
let seed: number | undefined;
let brand = 'ia';
let profile: string | undefined;
const protocols: Array<'zmodem' | 'ymodem'> = [];
let accel: 'kvm' | 'tcg' | undefined;
const phases: Phase[] = [];
for (let i = 0; i < argv.length; i++) {
  const [k, inline] = argv[i].split(/=(.*)/s);
  const v = () => inline ?? argv[++i] ?? '';
  const int = (name: string) => {
    const n = Number(v());
    if (!Number.isInteger(n) || n < 0) throw new Error(`${name} takes a whole number`);
    return n;
  };
  if (k === '--cuts') cuts = int('--cuts');
  else if (k === '--seed') seed = int('--seed');
  else if (k === '--brand') brand = v();
  else if (k === '--profile') {
    const p = v();
    profile = p.endsWith('.json') ? resolve(p) : p;
  }
  else if (k === '--accel') {
    const a = v();
    if (a !== 'kvm' && a !== 'tcg') throw new Error('--accel takes kvm or tcg');
    accel = a;
  } else if (k === '--protocol') {
    const p = v();
    if (p !== 'zmodem' && p !== 'ymodem') throw new Error('--protocol takes zmodem or ymodem (twice: both, one picked for each cut)');
    protocols.push(p);
  } else if (k === '--phase') {
    const p = v() as Phase;
    if (!PHASES.includes(p)) throw new Error(`--phase takes ${PHASES.join(', ')}`);
    phases.push(p);
  } else throw new Error(`unknown argument ${argv[i]} (--cuts N, --seed N, --phase P, --protocol zmodem|ymodem, --brand B, --profile P, --accel kvm|tcg)`);
}
const missing = missingHostTools();
if (missing) {
  console.error(`test:board: missing host tools: ${missing}`);
  process.exit(2);
}
if (!existsSync(join(ROOT, 'dist', brand, 'manifest.json'))) await build({ brands: [brand], quiet: true });
const stop = () => process.exit(130); // the board's QEMU goes with this process (setpriv --pdeathsig)
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
try {
  const r = await runCuts({ cuts, seed, phases: phases.length ? phases : undefined, protocols, brand, profile, accel });
  console.log(r.summary);
  process.exit(r.broken ? 1 : 0);
} catch (e) {
  console.error(`test:board: ${(e as Error).message}`);
  process.exit(2);
}
