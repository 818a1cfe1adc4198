// A stand-in terminal this project did not write: a real shell (bash, or
// Debian's busybox ash with busybox's applets first on its PATH, as on a
// busybox terminal) run as an unprivileged user behind a login prompt on
// a socat pty, with the real lrzsz rz/rb, and Debian's lighttpd serving the
// release the shell installs (its /goform/ handed to a simulator). The
// harness reaches the console over the pty, directly or through the fault
// shim (a paced line, a lost answer).
import { chownSync, chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startSimulator } from '../../simulator/server.ts';
import { loadModel } from '../../simulator/model.ts';
import { startFaultShim, type FaultShimOptions } from '../../hil/fault-shim.ts';
import { startFront } from '../../hil/web/servers.ts';
import { START_GUARD_MS, ptyPair, serialStream, startProcess, type Scope } from '../../hil/paced-line.ts';
import { TEST_ADMIN } from '../../hil/admin.ts';

export type ShellKind = 'bash' | 'ash';

const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;

export const USER = 'qa';
export const PASSWORD = 'bench';

/** Why a shell cannot be used here, or '' when it can. */
export function missing(kind: ShellKind): string {
  const tool = kind === 'bash' ? ['bash', '--version'] : ['busybox', 'ash', '-c', 'true'];
  if (spawnSync(tool[0], tool.slice(1)).status !== 0) return `${kind === 'bash' ? 'bash' : "Debian's busybox"} is not installed (apt-get install ${kind === 'bash' ? 'bash' : 'busybox'})`;
  for (const t of ['rz', 'rb', 'socat', 'setpriv']) if (spawnSync('sh', ['-c', `command -v ${t}`]).status !== 0) return `${t} is not installed`;
  return '';
}

/**
 * The console's login, as getty and login do it: a prompt, the user, the
 * password without echo, then the shell as nobody (when the test runs as
 * root) with a plain environment and a '$ ' prompt.
 */
function loginScript(kind: ShellKind, home: string, applets: string): string {
  const shell = kind === 'bash' ? 'bash --norc --noprofile -i' : 'busybox ash -i';
  // On a busybox terminal mv, ln, rm, tar ... are busybox's applets (they ask where GNU's do not): first on its PATH.
  const path = `${kind === 'ash' ? `${applets}:` : ''}/usr/local/bin:/usr/bin:/bin`;
  const drop = asRoot ? `setpriv --reuid=${NOBODY} --regid=${NOBODY} --clear-groups ` : '';
  return `#!/bin/sh
trap '' INT
while :; do
  printf 'terminal login: '
  read -r user || exit 0
  [ -n "$user" ] || continue
  printf 'Password: '
  stty -echo; read -r pass; stty echo
  printf '\\r\\n'
  if [ "$user" = ${USER} ] && [ "$pass" = ${PASSWORD} ]; then
    cd ${home}
    trap - INT # as login leaves it: Ctrl-C interrupts the shell's foreground command
    exec ${drop}env -i HOME=${home} PATH=${path} TERM=vt100 PS1='$ ' ${shell}
  fi
  printf 'Login incorrect\\r\\n'
done
`;
}

export interface ShellTerminal {
  /** What the harness opens: the console's pty, or the near end of the shim. */
  serial: string;
  url: string;
  /** The terminal's paths, as the profile gives them. */
  paths: { tmp: string; www: string; releases: string };
  /** A terminal profile file for this stand-in. */
  profile: string;
  /** Pids of the processes called `name` that run on this console (in its session), not another test's. */
  running(name: string): number[];
}

/** Pids of processes called `name` in the session socat (pid `socat`) started the console in. */
function running(socat: number, name: string): number[] {
  const pgrep = (...args: string[]) => spawnSync('pgrep', args, { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
  // socat's child is the login (setsid: it leads the session); the shell and whatever it runs stay in that session.
  const [login] = pgrep('-P', String(socat));
  return login ? pgrep('-s', login, '-x', name).map(Number) : [];
}

/** Start the stand-in terminal; the scope stops everything. `line`: put the fault shim between the harness and the console. */
export async function startShellTerminal(scope: Scope, kind: ShellKind, siteDir: string, line?: FaultShimOptions, keepReleases = 2): Promise<ShellTerminal> {
  const sim = await startSimulator({ activated: TEST_ADMIN.password, siteDir, model: loadModel('default'), storeFile: join(scope.tmpdir('shell-sim-'), 'store.json') });
  scope.defer('stop the simulator', () => sim.close());
  const front = await startFront('lighttpd', siteDir, new URL(sim.url).host);
  scope.defer('stop lighttpd', () => front.close());
  // startFront installed the factory release as <base>/www.d/r1 with <base>/www -> it; the shell's user owns the rest.
  const base = dirname(front.root);
  const paths = { tmp: join(base, 'tmp'), www: front.root, releases: join(base, 'www.d') };
  mkdirSync(paths.tmp);
  for (const d of [paths.tmp, paths.releases]) {
    chmodSync(d, 0o755);
    if (asRoot) chownSync(d, NOBODY, NOBODY);
  }
  const dir = mkdtempSync(join(tmpdir(), `hil-${kind}-`));
  scope.defer(`remove ${dir}`, () => rmSync(dir, { recursive: true, force: true }));
  chmodSync(dir, 0o755);
  const applets = join(dir, 'bin');
  if (kind === 'ash') {
    mkdirSync(applets);
    const made = spawnSync('busybox', ['--install', '-s', applets], { encoding: 'utf8' });
    if (made.status !== 0) throw new Error(`busybox --install -s ${applets}: ${made.stderr}`);
  }
  writeFileSync(join(dir, 'login.sh'), loginScript(kind, paths.tmp, applets), { mode: 0o755 });
  const consolePty = join(dir, 'console');
  const socat = startProcess(scope, 'socat', ['-d', '-d', `PTY,link=${consolePty},raw,echo=0`, `EXEC:/bin/sh ${join(dir, 'login.sh')},pty,setsid,ctty,stderr,sane`]);
  const deadline = Date.now() + START_GUARD_MS;
  while (!/starting data transfer loop/.test(socat.stderr())) {
    if (socat.proc.exitCode !== null || Date.now() > deadline) throw new Error(`socat did not start the console: ${socat.stderr()}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  let serial = consolePty;
  if (line) {
    const near = await ptyPair(scope, dir, 'near-');
    const shim = startFaultShim(await serialStream(scope, near.b), await serialStream(scope, consolePty), line);
    scope.defer('close the fault shim', () => shim.close());
    serial = near.a;
  }
  const profile = join(dir, 'profile.json');
  writeFileSync(
    profile,
    JSON.stringify({
      description: `${kind} as ${asRoot ? 'nobody' : 'this user'} behind a login prompt on a socat pty; lighttpd serves www (stat cache off: a swapped symlink is seen at the next request, so there is nothing to restart)`,
      user: USER,
      password: PASSWORD,
      paths,
      keepReleases,
      commands: { restartWeb: 'true' },
      timeouts: { promptMs: 10000, commandMs: 30000, transferStartMs: 10000, httpMs: 15000 },
    }),
  );
  const consolePid = socat.proc.pid!;
  return { serial, url: front.url, paths, profile, running: (name) => running(consolePid, name) };
}

/**
 * A fault-shim rule that loses rb's ACK of the closing (all-zero) block 0:
 * what happens when rb exits before its last ACK reaches the sender.
 * `seen.endBlocks` counts closing blocks sent, so a test can tell that none
 * was resent into the shell.
 */
export function loseLastAck() {
  const seen = { endBlocks: 0, dropped: 0 };
  let state = 0; // 1: SOH, 2: SOH 00, 3+: SOH 00 FF and (state - 3) zero bytes
  let armed = false;
  const dropIf = (dir: 'aToB' | 'bToA', b: number): boolean => {
    if (dir === 'bToA') {
      if (armed && b === 0x06) {
        armed = false;
        seen.dropped++;
        return true;
      }
      return false;
    }
    if (state >= 3 && b === 0) {
      // 128 zero payload bytes and a zero CRC: 130 zeros close the block.
      if (++state === 3 + 130) {
        seen.endBlocks++;
        armed = true;
        state = 0;
      }
    } else if (state === 1 && b === 0) state = 2;
    else if (state === 2 && b === 0xff) state = 3;
    else state = b === 0x01 ? 1 : 0;
    return false;
  };
  return { seen, dropIf };
}
