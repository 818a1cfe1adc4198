// `npm run board`: the virtual terminal board. Builds what is missing (the
// brand, the Debian packages, the initramfs, the /data disk), starts the
// simulated API (as `npm start` does) and the board on QEMU, and prints the
// serial console, the web address and the boot time. Ctrl-C stops both.
//   npm run board -- [--brand ia] [--fresh] [--port 8080] [--no-pty] [--log] [--accel kvm|tcg]
import { existsSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from '../../build.ts';
import { defaultBrand } from '../../build/project.ts';
import { loadProfile } from '../simulator/profile.ts';
import { startSimulator } from '../simulator/server.ts';
import { prepareBoard } from './board.ts';
import { freePort, startBoard, type Board } from './qemu.ts';
import { ROOT, missingHostTools } from './packages.ts';
import { parseFlags } from '../flags.ts';

const a = parseFlags(process.argv.slice(2));
const known = ['brand', 'fresh', 'port', 'no-pty', 'log', 'accel', 'profile', 'disk'];
for (const k of Object.keys(a)) if (!known.includes(k)) throw new Error(`unknown option --${k} (use ${known.map((k) => `--${k}`).join(', ')})`);
if (a.accel !== undefined && a.accel !== 'kvm' && a.accel !== 'tcg') throw new Error('--accel takes kvm or tcg');
const missing = missingHostTools();
if (missing) {
  console.error(`board: missing host tools: ${missing}`);
  process.exit(1);
}
const brand = typeof a.brand === 'string' ? a.brand : defaultBrand();
const siteDir = join(ROOT, 'dist', brand);
if (!existsSync(join(siteDir, 'manifest.json'))) {
  console.log(`No build of brand ${brand} yet: building it (npm run build -- --brand ${brand}).`);
  await build({ brands: [brand] });
}
const files = prepareBoard({ brand, fresh: a.fresh === true, profile: typeof a.profile === 'string' ? a.profile : 'board', disk: typeof a.disk === 'string' ? resolve(a.disk) : undefined, log: (l) => console.log(l) });

const storeFile = join(ROOT, '.sim-data', `board-${brand}.json`);
if (a.fresh === true) {
  rmSync(storeFile, { force: true });
  rmSync(`${storeFile}.photos`, { recursive: true, force: true });
}
const sim = await startSimulator({ siteDir, brand, profile: loadProfile('default'), storeFile, port: await freePort(), host: '127.0.0.1', log: a.log === true });
const apiPort = Number(new URL(sim.url).port);
const httpPort = Number(typeof a.port === 'string' ? a.port : (process.env.PORT ?? 8080));
let board: Board;
try {
  board = await startBoard({
    files,
    apiPort,
    httpPort,
    pty: a['no-pty'] !== true,
    accel: a.accel as 'kvm' | 'tcg' | undefined,
    onSerial: a.log === true ? (d) => process.stdout.write(d) : undefined,
    log: a.log === true ? (l) => console.log(l) : undefined,
  });
} catch (e) {
  console.error(`board: ${(e as Error).message}`);
  await sim.close();
  process.exit(1);
}
let stopping = false;
const stop = async (code = 0) => {
  if (stopping) process.exit(code);
  stopping = true;
  await Promise.allSettled([board.close(), sim.close()]);
  process.exit(code);
};
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));
board.qemu.once('exit', (code, signal) => {
  if (stopping) return;
  console.error(`board: QEMU exited (${code ?? signal})`);
  void stop(1);
});
console.log(`Virtual terminal board: Debian's kernel ${files.release} on QEMU (${board.accel.toUpperCase()}), brand ${brand}; booting…`);
let bootMs: number;
try {
  bootMs = await board.booted;
} catch (e) {
  console.error(`board: ${(e as Error).message}`);
  await stop(1);
  throw e;
}
const shown = board.url.replace('127.0.0.1', 'localhost');
const admin = sim.store.get().admin;
console.log(`  console:  ${shown} (lighttpd on the board; /goform/ goes to the simulated API ${sim.url} through guestfwd)`);
if (admin.activated) console.log(`  sign in:  ${admin.username} / the password chosen when it was activated (--fresh: back to the factory state)`);
else console.log(`  sign in:  ${admin.username} / ${admin.password}, the factory credential: the console then asks you to choose the administrator password`);
console.log(`  serial:   ${board.serialUrl}${board.ptyPath ? ` and ${board.ptyPath}` : ''} (ttyS0 at 115200, login ${files.profile.user} / ${files.profile.password})`);
console.log(`  disk:     ${files.disk} (/data, ext4: releases in /data/www.d, /data/www the live one; --fresh: the factory state)`);
console.log(`  data:     ${storeFile} (the simulated API's store)`);
console.log(`  boot:     ${(bootMs / 1000).toFixed(1)} s from QEMU's start to the login prompt (${board.accel.toUpperCase()})`);
console.log(`  flash it: npm run hil -- --serial ${board.serialUrl} --url ${board.url} --profile board --brand ${brand}`);
console.log('Ctrl-C stops the board and the simulated API.');
