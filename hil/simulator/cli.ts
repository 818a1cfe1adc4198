// `npm start`: the simulated terminal with seeded data.
//   npm start -- --brand anviz --profile lite --port 8081 --store .sim-data/x.json --fresh --log
// PORT overrides the port (default 8080).
import { existsSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, defaultBrand } from '../../build.ts';
import { loadProfile } from './profile.ts';
import { startSimulator } from './server.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function args(argv: string[]): Record<string, string | true> {
  const out: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const m = /^--([^=]+)(?:=(.*))?$/.exec(argv[i]);
    if (!m) throw new Error(`unexpected argument ${argv[i]}`);
    const next = argv[i + 1];
    out[m[1]] = m[2] ?? (next && !next.startsWith('--') ? (i++, next) : true);
  }
  return out;
}

const a = args(process.argv.slice(2));
const known = ['brand', 'profile', 'store', 'port', 'host', 'fresh', 'log'];
for (const k of Object.keys(a)) if (!known.includes(k)) throw new Error(`unknown option --${k} (use ${known.map((k) => `--${k}`).join(', ')})`);
const brand = typeof a.brand === 'string' ? a.brand : defaultBrand();
const siteDir = join(ROOT, 'dist', brand);
if (!existsSync(join(siteDir, 'manifest.json'))) {
  console.log(`No build of brand ${brand} yet: building it (npm run build -- --brand ${brand}).`);
  const reports = await build({ brands: [brand] });
  const over = reports.flatMap((r) => r.overBudget);
  if (over.length) console.warn(`warning: over the size budget:\n  ${over.join('\n  ')}`);
}
const profile = loadProfile(typeof a.profile === 'string' ? a.profile : 'default');
const storeFile = resolve(ROOT, typeof a.store === 'string' ? a.store : join('.sim-data', `${brand}.json`));
if (a.fresh === true) rmSync(storeFile, { force: true });
const port = Number(typeof a.port === 'string' ? a.port : (process.env.PORT ?? 8080));
const sim = await startSimulator({ siteDir, profile, storeFile, port, host: typeof a.host === 'string' ? a.host : '127.0.0.1', log: a.log === true });
const shown = sim.url.replace('127.0.0.1', 'localhost');
console.log(`Simulated terminal (${profile.model}), brand ${brand}`);
console.log(`  console:  ${shown}`);
console.log(`  sign in:  ${sim.store.get().admin.username} / ${sim.store.get().admin.password}`);
console.log(`  data:     ${storeFile} (delete it, or pass --fresh, to start over)`);
const stop = () => sim.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
