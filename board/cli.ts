// `npm run board`: the virtual terminal board. Builds what is missing (the
// brand, the Debian packages, the initramfs, the /data disk), starts the
// simulated API (as `npm start` does) and the board on QEMU, and prints the
// serial console, the web address and the boot time. Ctrl-C stops both.
//   npm run board -- [--brand ia] [--fresh] [--port 8080] [--no-pty] [--log] [--accel kvm|tcg] [--console-profile board] [--model default] [--disk FILE]
// --console-profile: the board's serial console profile (serial/console-profiles/,
// or a JSON file); --model: the simulated API's device model (simulator/models/).
import { resolve } from 'node:path';
import { argsOrExit, readArgs } from '../build/args.ts';
import { defaultBrand } from '../build/project.ts';
import { startBoardTerminal, type BoardTerminal } from './start.ts';

const USAGE = `usage: npm run board -- [--brand ${defaultBrand()}] [--fresh] [--port 8080] [--no-pty] [--log] [--accel kvm|tcg] [--console-profile board] [--model default] [--disk FILE]
A virtual terminal: Debian's kernel on QEMU with the simulated API behind it; PORT sets the port too. board/cli.ts's header says more.`;

const OPTIONS = {
  brand: { type: 'string' },
  fresh: { type: 'boolean' },
  port: { type: 'string' },
  'no-pty': { type: 'boolean' },
  log: { type: 'boolean' },
  accel: { type: 'string' },
  'console-profile': { type: 'string' },
  model: { type: 'string' },
  disk: { type: 'string' },
} as const;

const a = argsOrExit('board', 2, () => {
  const { values } = readArgs(process.argv.slice(2), OPTIONS, USAGE);
  if (values.accel !== undefined && values.accel !== 'kvm' && values.accel !== 'tcg') throw new Error('--accel takes kvm or tcg');
  return { ...values, accel: values.accel as 'kvm' | 'tcg' | undefined };
});
const brand = a.brand ?? defaultBrand();
const consoleProfile = a['console-profile'] ?? 'board';

console.log(`Virtual terminal board, brand ${brand}: booting Debian's kernel on QEMU…`);
let t: BoardTerminal;
try {
  t = await startBoardTerminal({
    brand,
    profile: consoleProfile,
    deviceProfile: a.model,
    fresh: a.fresh ?? false,
    disk: a.disk !== undefined ? resolve(a.disk) : undefined,
    httpPort: Number(a.port ?? process.env.PORT ?? 8080),
    pty: !a['no-pty'],
    accel: a.accel,
    onSerial: a.log ? (d) => process.stdout.write(d) : undefined,
    apiLog: a.log ?? false,
    log: (l) => console.log(l),
  });
} catch (e) {
  console.error(`board: ${(e as Error).message}`);
  process.exit(1);
}
const { board, sim, files } = t;
let stopping = false;
const stop = async (code = 0) => {
  if (stopping) process.exit(code);
  stopping = true;
  await t.close();
  process.exit(code);
};
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));
board.qemu.once('exit', (code, signal) => {
  if (stopping) return;
  console.error(`board: QEMU exited (${code ?? signal})`);
  void stop(1);
});
const shown = board.url.replace('127.0.0.1', 'localhost');
const admin = sim.store.get().admin;
console.log(`  kernel:   ${files.release} (${files.kernelPkg}) on QEMU (${board.accel.toUpperCase()})`);
console.log(`  console:  ${shown} (lighttpd on the board; /goform/ goes to the simulated API ${sim.url} through guestfwd)`);
if (admin.activated) console.log(`  sign in:  ${admin.username} / the password chosen when it was activated (--fresh: back to the factory state)`);
else console.log(`  sign in:  ${admin.username} / ${admin.password}, the factory credential: the console then asks you to choose the administrator password`);
console.log(`  serial:   ${board.serialUrl}${board.ptyPath ? ` and ${board.ptyPath}` : ''} (ttyS0 at 115200, login ${files.profile.user} / ${files.profile.password})`);
console.log(`  disk:     ${files.disk} (/data, ext4: releases in /data/www.d, /data/www the live one; --fresh: the factory state)`);
console.log(`  data:     ${t.storeFile} (the simulated API's store)`);
console.log(`  boot:     ${(t.bootMs / 1000).toFixed(1)} s from QEMU's start to the login prompt (${board.accel.toUpperCase()})`);
console.log(`  flash it: npm run hil -- --serial ${board.serialUrl} --url ${board.url} --console-profile ${consoleProfile} --brand ${brand}`);
console.log(`            (or npm run hil -- --board, which starts a board of its own)`);
console.log('Ctrl-C stops the board and the simulated API.');
