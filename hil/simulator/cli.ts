// `npm start`: the simulated terminal with seeded data.
//   npm start -- --brand anviz --profile lite --port 8081 --store .sim-data/x.json --fresh --log
// --enroll fail|timeout|success: how face and finger enrolments on the
// terminal end (the profile's `enroll.outcome`; success by default).
// PORT overrides the port (default 8080). --events SECONDS: live events at
// random, one every SECONDS on average (20 by default; 0: none).
// With --console (or --sandbox DIR) it is a full simulated terminal: a
// sandbox folder is the terminal's / (default .sim-data/<brand>-sandbox, its
// /www a symlink to a factory copy of the build), the web server serves
// <sandbox>/www, and a serial console (login, busybox-like shell, rb,
// `/etc/init.d/S80httpd restart`) listens on tcp:// and, through socat, a pty.
//   npm start -- --console [--sandbox DIR] [--console-port 2323] [--no-pty]
import { existsSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from '../../build.ts';
import { defaultBrand } from '../../build/project.ts';
import { ENROLL_OUTCOMES, loadProfile, type EnrollOutcome } from './profile.ts';
import { startSimulator } from './server.ts';
import { CONSOLE_CREDENTIALS, startConsole, type ConsoleServer } from './console.ts';
import { prepareSandbox, siteDirOf } from './shell/sandbox.ts';
import { parseFlags } from '../flags.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const a = parseFlags(process.argv.slice(2));
const known = ['brand', 'profile', 'store', 'port', 'host', 'fresh', 'log', 'console', 'sandbox', 'console-port', 'no-pty', 'enroll', 'events'];
for (const k of Object.keys(a)) if (!known.includes(k)) throw new Error(`unknown option --${k} (use ${known.map((k) => `--${k}`).join(', ')})`);
const brand = typeof a.brand === 'string' ? a.brand : defaultBrand();
const siteDir = join(ROOT, 'dist', brand);
if (!existsSync(join(siteDir, 'manifest.json'))) {
  console.log(`No build of brand ${brand} yet: building it (npm run build -- --brand ${brand}).`);
  const reports = await build({ brands: [brand] });
  const over = reports.flatMap((r) => r.overBudget);
  if (over.length) console.warn(`warning: over the size budget:\n  ${over.join('\n  ')}`);
}
if (a.enroll !== undefined && !ENROLL_OUTCOMES.includes(a.enroll as EnrollOutcome)) throw new Error(`--enroll takes ${ENROLL_OUTCOMES.join(', ')}`);
const profile = loadProfile(typeof a.profile === 'string' ? a.profile : 'default', a.enroll ? { enroll: { outcome: a.enroll as EnrollOutcome } } : {});
const storeFile = resolve(ROOT, typeof a.store === 'string' ? a.store : join('.sim-data', `${brand}.json`));
if (a.fresh === true) {
  rmSync(storeFile, { force: true });
  rmSync(`${storeFile}.photos`, { recursive: true, force: true });
}
const port = Number(typeof a.port === 'string' ? a.port : (process.env.PORT ?? 8080));
let sandbox: string | undefined;
if (a.console !== undefined || a.sandbox !== undefined) {
  if (a.sandbox === true) throw new Error('--sandbox needs a folder');
  const ownSandbox = join(ROOT, '.sim-data', `${brand}-sandbox`);
  sandbox = typeof a.sandbox === 'string' ? resolve(a.sandbox) : ownSandbox;
  // --fresh starts the default sandbox over; a folder given with --sandbox is never wiped.
  if (a.fresh === true && sandbox === ownSandbox) rmSync(sandbox, { recursive: true, force: true });
  prepareSandbox(sandbox, { factorySite: siteDir });
}
const eventsEvery = a.events === undefined ? 20 : Number(a.events);
if (!Number.isFinite(eventsEvery) || eventsEvery < 0) throw new Error('--events takes seconds (0: no live events)');
const sim = await startSimulator({
  siteDir: sandbox ? siteDirOf(sandbox) : siteDir,
  brand,
  profile,
  storeFile,
  port,
  host: typeof a.host === 'string' ? a.host : '127.0.0.1',
  log: a.log === true,
  // Live events: someone at the door every --events seconds on average (0: none).
  randomEventsMs: eventsEvery * 1000,
});
let serial: ConsoleServer | undefined;
if (sandbox) {
  try {
    serial = await startConsole({
      root: sandbox,
      hostname: 'terminal',
      port: typeof a['console-port'] === 'string' ? Number(a['console-port']) : 0,
      pty: a['no-pty'] !== true,
      onRestartHttp: (dir) => sim.setSite(dir),
      log: a.log === true ? (line) => console.log(line) : undefined,
    });
  } catch (err) {
    console.error(`simulator: ${(err as Error).message}${a['no-pty'] === true ? '' : ' (or pass --no-pty for the tcp:// console only)'}`);
    await sim.close();
    process.exit(1);
  }
}
const shown = sim.url.replace('127.0.0.1', 'localhost');
console.log(`Simulated terminal (${profile.model}), brand ${brand}`);
console.log(`  console:  ${shown}`);
const admin = sim.store.get().admin;
// docs/API.md, "Activation": a fresh store is a terminal new from production.
if (admin.activated) console.log(`  sign in:  ${admin.username} / the password chosen when it was activated (--fresh: back to the factory state)`);
else console.log(`  sign in:  ${admin.username} / ${admin.password}, the factory credential: the console then asks you to choose the administrator password (six digits, not easy to guess)`);
console.log(`  data:     ${storeFile} (delete it, or pass --fresh, to start over)`);
console.log(`  firmware: ${profile.modelCode} ${sim.store.get().firmware ?? profile.Build_Version} (a package: npm run firmware -- --model ${profile.modelCode} --version V… --out fw.bin --key tests/keys/vendor-test.pem, the test key the shipped profiles hold; forced-upgrade password ${profile.upgradePassword})`);
const { outcome, ms, timeoutMs } = profile.enroll;
console.log(`  enrol:    ${outcome === 'timeout' ? `times out after ${timeoutMs} ms` : `${outcome === 'success' ? 'succeeds' : 'fails'} after ${ms} ms`} (--enroll success|fail|timeout)`);
console.log(`  events:   ${eventsEvery ? `someone at the door every ${eventsEvery} s on average` : 'none'} (--events SECONDS, 0 for none)`);
if (serial && sandbox) {
  console.log(`  serial:   ${serial.tcpUrl}${serial.ptyPath ? ` and ${serial.ptyPath}` : ''} (login ${CONSOLE_CREDENTIALS.user} / ${CONSOLE_CREDENTIALS.password})`);
  console.log(`  sandbox:  ${sandbox} (the terminal's /; the web server serves /www)`);
}
const stop = () => Promise.all([serial?.close(), sim.close()]).then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
