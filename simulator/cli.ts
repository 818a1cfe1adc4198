// `npm start`: the simulated terminal with seeded data.
//   npm start -- --brand anviz --model lite --port 8081 --store .sim-data/x.json --fresh --log
// --model: the device model (simulator/models/, or a JSON file of one).
// --enroll fail|timeout|success: how face and finger enrolments on the
// terminal end (the model's `enroll.outcome`; success by default).
// PORT overrides the port (default 8080). --events SECONDS: live events at
// random, one every SECONDS on average (20 by default; 0: none).
// With --console (or --sandbox DIR) it is a full simulated terminal: a
// sandbox folder is the terminal's / (default .sim-data/<brand>-sandbox, its
// /www a symlink to a factory copy of the build), the web server serves
// <sandbox>/www, and a serial console (login, busybox-like shell, rb,
// `/etc/init.d/S80httpd restart`) listens on tcp:// and, through socat, a pty.
//   npm start -- --console [--sandbox DIR] [--console-port 2323] [--no-pty]
import { rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuilt } from '../build.ts';
import { defaultBrand } from '../build/project.ts';
import { ENROLL_OUTCOMES, loadModel, type EnrollOutcome } from './model.ts';
import { startSimulator } from './server.ts';
import { CONSOLE_CREDENTIALS, startConsole, type ConsoleServer } from './console.ts';
import { prepareSandbox, siteDirOf } from './shell/sandbox.ts';
import { argsOrExit, readArgs } from '../build/args.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const USAGE = `usage: npm start -- [--brand ${defaultBrand()}] [--model default] [--port 8080] [--host 127.0.0.1] [--store .sim-data/<brand>.json] [--fresh] [--log]
       [--enroll ${ENROLL_OUTCOMES.join('|')}] [--events 20] [--console [--sandbox DIR] [--console-port 0] [--no-pty]]
The simulated terminal, serving dist/<brand> (built first if missing); PORT sets the port too. simulator/cli.ts's header says more.`;

const OPTIONS = {
  brand: { type: 'string' },
  model: { type: 'string' },
  store: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  fresh: { type: 'boolean' },
  log: { type: 'boolean' },
  console: { type: 'boolean' },
  sandbox: { type: 'string' },
  'console-port': { type: 'string' },
  'no-pty': { type: 'boolean' },
  enroll: { type: 'string' },
  events: { type: 'string' },
} as const;

const a = argsOrExit('simulator', 2, () => {
  const { values } = readArgs(process.argv.slice(2), OPTIONS, USAGE);
  if (values.enroll !== undefined && !ENROLL_OUTCOMES.includes(values.enroll as EnrollOutcome)) throw new Error(`--enroll takes ${ENROLL_OUTCOMES.join(', ')}`);
  const eventsEvery = values.events === undefined ? 20 : Number(values.events);
  if (!Number.isFinite(eventsEvery) || eventsEvery < 0) throw new Error('--events takes seconds (0: no live events)');
  return { ...values, enroll: values.enroll as EnrollOutcome | undefined, eventsEvery };
});
const brand = a.brand ?? defaultBrand();
const siteDir = join(ROOT, 'dist', brand);
const over = (await ensureBuilt(brand, { log: console.log })).flatMap((r) => r.overBudget);
if (over.length) console.warn(`warning: over the size budget:\n  ${over.join('\n  ')}`);
const model = loadModel(a.model ?? 'default', a.enroll ? { enroll: { outcome: a.enroll } } : {});
const storeFile = resolve(ROOT, a.store ?? join('.sim-data', `${brand}.json`));
if (a.fresh) {
  rmSync(storeFile, { force: true });
  rmSync(`${storeFile}.photos`, { recursive: true, force: true });
}
const port = Number(a.port ?? process.env.PORT ?? 8080);
let sandbox: string | undefined;
if (a.console || a.sandbox !== undefined) {
  const ownSandbox = join(ROOT, '.sim-data', `${brand}-sandbox`);
  sandbox = a.sandbox !== undefined ? resolve(a.sandbox) : ownSandbox;
  // --fresh starts the default sandbox over; a folder given with --sandbox is never wiped.
  if (a.fresh && sandbox === ownSandbox) rmSync(sandbox, { recursive: true, force: true });
  prepareSandbox(sandbox, { factorySite: siteDir });
}
const sim = await startSimulator({
  siteDir: sandbox ? siteDirOf(sandbox) : siteDir,
  brand,
  model,
  storeFile,
  port,
  host: a.host ?? '127.0.0.1',
  log: a.log ?? false,
  // Live events: someone at the door every --events seconds on average (0: none).
  randomEventsMs: a.eventsEvery * 1000,
});
let serial: ConsoleServer | undefined;
if (sandbox) {
  try {
    serial = await startConsole({
      root: sandbox,
      hostname: 'terminal',
      port: a['console-port'] !== undefined ? Number(a['console-port']) : 0,
      pty: !a['no-pty'],
      onRestartHttp: (dir) => sim.setSite(dir),
      log: a.log ? (line) => console.log(line) : undefined,
    });
  } catch (err) {
    console.error(`simulator: ${(err as Error).message}${a['no-pty'] ? '' : ' (or pass --no-pty for the tcp:// console only)'}`);
    await sim.close();
    process.exit(1);
  }
}
const shown = sim.url.replace('127.0.0.1', 'localhost');
console.log(`Simulated terminal (${model.model}), brand ${brand}`);
console.log(`  console:  ${shown}`);
const admin = sim.store.get().admin;
// docs/API.md, "Activation": a fresh store is a terminal new from production.
if (admin.activated) console.log(`  sign in:  ${admin.username} / the password chosen when it was activated (--fresh: back to the factory state)`);
else console.log(`  sign in:  ${admin.username} / ${admin.password}, the factory credential: the console then asks you to choose the administrator password (six digits, not easy to guess)`);
console.log(`  data:     ${storeFile} (delete it, or pass --fresh, to start over)`);
console.log(`  firmware: ${model.modelCode} ${sim.store.get().firmware ?? model.Build_Version} (a package: npm run firmware -- --model ${model.modelCode} --version V… --out fw.bin --key tests/support/keys/vendor-test.pem, the test key the shipped profiles hold; forced-upgrade password ${model.upgradePassword})`);
const { outcome, ms, timeoutMs } = model.enroll;
console.log(`  enrol:    ${outcome === 'timeout' ? `times out after ${timeoutMs} ms` : `${outcome === 'success' ? 'succeeds' : 'fails'} after ${ms} ms`} (--enroll success|fail|timeout)`);
console.log(`  events:   ${a.eventsEvery ? `someone at the door every ${a.eventsEvery} s on average` : 'none'} (--events SECONDS, 0 for none)`);
if (serial && sandbox) {
  console.log(`  serial:   ${serial.tcpUrl}${serial.ptyPath ? ` and ${serial.ptyPath}` : ''} (login ${CONSOLE_CREDENTIALS.user} / ${CONSOLE_CREDENTIALS.password})`);
  console.log(`  sandbox:  ${sandbox} (the terminal's /; the web server serves /www)`);
}
const stop = () => Promise.all([serial?.close(), sim.close()]).then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
