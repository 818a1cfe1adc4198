// The board's initramfs, built from Debian packages (board/packages.ts):
// busybox-static (the shell, init, getty, login and the tools), lrzsz (rz,
// rb), lighttpd with its modules and the shared libraries they need (ldd),
// and the kernel's modules for virtio net and block and ext4, insmodded by
// /init in dependency order. /init mounts /data (a virtio disk, ext4), starts
// lighttpd from the configuration on it, and hands over to busybox init,
// which keeps a getty with login on ttyS0. A firmware engineer can read this
// file as the reference of a terminal's init and layout.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { cpio, type CpioEntry } from './cpio.ts';
import { moduleLoadOrder } from './modules.ts';
import { ACCESS_FILES } from '../build/access.ts';

export interface InitramfsOptions {
  /** Unpacked packages by name (boardPackages().dirs). */
  dirs: Record<string, string>;
  /** The unpacked kernel package and its release. */
  kernelDir: string;
  release: string;
  user: string;
  password: string;
  hostname?: string;
}

/** Where the board keeps things; the board's profile (serial/console-profiles/board.json) names the same. */
export const BOARD_LAYOUT = {
  data: '/data',
  www: '/data/www',
  releases: '/data/www.d',
  etc: '/data/etc',
  conf: '/data/etc/lighttpd.conf',
  /** The guest's address and the address guestfwd answers for the device's API. */
  guestIp: '10.0.2.15',
  gateway: '10.0.2.2',
  apiIp: '10.0.2.100',
  apiPort: 8081,
  /** The firmware's feed on the same address (board/firmware-feed.ts), for S70firmware. */
  firmwarePort: 8082,
  /** The access file the web server reads (build/access.ts), which S70firmware keeps. */
  access: `/data/etc/${ACCESS_FILES.plain}`,
  /** The door's relay and sensor as the firmware drives them (board/firmware-feed.ts's doorText), which S70firmware keeps: in RAM, as a GPIO line's state is. */
  door: '/var/run/door',
} as const;

/** The shared libraries `file` loads, as ldd names them (and the dynamic loader), with the host file behind each. */
export function sharedLibraries(file: string): Array<{ path: string; host: string }> {
  const r = spawnSync('ldd', [file], { encoding: 'utf8' });
  if (/not a dynamic executable|statically linked/.test(`${r.stdout}${r.stderr}`)) return [];
  if (r.status !== 0) throw new Error(`ldd ${file} failed: ${r.stderr.trim()}`);
  const out: Array<{ path: string; host: string }> = [];
  for (const line of r.stdout.split('\n')) {
    if (/=> not found/.test(line)) throw new Error(`${file} needs ${line.trim()}: install it on this machine (the board copies the host's Debian libraries)`);
    const m = /=>\s+(\/\S+)/.exec(line) ?? /^\s*(\/\S+)\s+\(/.exec(line);
    if (m) out.push({ path: m[1], host: realpathSync(m[1]) });
  }
  return out;
}

const INIT = (o: { release: string; modules: string[] }) => `#!/bin/sh
# The board's /init (PID 1 until it execs busybox init). Written by board/initramfs.ts.
export PATH=/sbin:/bin:/usr/sbin:/usr/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts
mount -t devpts devpts /dev/pts
mount -t tmpfs -o mode=1777 tmpfs /tmp
mkdir -p /var/run /var/log

# Drivers, dependencies first: virtio over PCI, its network and block devices, ext4.
for m in ${o.modules.join(' ')}; do
  insmod /lib/modules/${o.release}/$m || echo "init: insmod $m failed"
done

hostname -F /etc/hostname
ip link set lo up
# QEMU user networking: the host's side is ${BOARD_LAYOUT.gateway}, the device's API ${BOARD_LAYOUT.apiIp}:${BOARD_LAYOUT.apiPort} (guestfwd).
ip addr add ${BOARD_LAYOUT.guestIp}/24 dev eth0 && ip link set eth0 up && ip route add default via ${BOARD_LAYOUT.gateway} || echo "init: no network"

# /data: the releases, the www link and the web server's configuration; it survives reboots.
n=0
while [ ! -b /dev/vda ] && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
mkdir -p ${BOARD_LAYOUT.data}
mount -t ext4 -o noatime /dev/vda ${BOARD_LAYOUT.data} || echo "init: ${BOARD_LAYOUT.data} did not mount"

/etc/init.d/S70firmware start
/etc/init.d/S80httpd start

exec /sbin/init
`;

const INITTAB = `# busybox init: a getty with login on the serial console; reboot and poweroff stop the web server and unmount /data first.
ttyS0::respawn:/sbin/getty -L 115200 ttyS0 vt100
::ctrlaltdel:/sbin/reboot
::shutdown:/etc/init.d/S80httpd stop
::shutdown:/bin/sync
::shutdown:/bin/umount -a -r
`;

const S80HTTPD = `#!/bin/sh
# Start, stop or restart the web server with the configuration the build writes, from /data.
CONF=${BOARD_LAYOUT.conf}
start() {
  if [ ! -f "$CONF" ]; then echo "S80httpd: no $CONF"; return 1; fi
  lighttpd -f "$CONF" -m /usr/lib/lighttpd >>/tmp/lighttpd.log 2>&1 || { echo "S80httpd: lighttpd did not start:"; tail -n 5 /tmp/lighttpd.log; return 1; }
}
stop() {
  # SIGINT: a graceful stop. lighttpd closes its ports at once and finishes the answers under way (the
  # answer to the RestartMachine that made the firmware stop it, among them), then ends.
  killall -INT lighttpd 2>/dev/null
  n=0
  while pidof lighttpd >/dev/null && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
  pidof lighttpd >/dev/null && killall -9 lighttpd
  return 0
}
case "$1" in
  start) start ;;
  stop) stop ;;
  restart) stop; start ;;
  *) echo "usage: $0 start|stop|restart"; exit 2 ;;
esac
`;

const S70FIRMWARE = `#!/bin/sh
# The firmware's part of the terminal, for what the board's web side needs of it. A terminal's
# firmware (1) writes the access file ${BOARD_LAYOUT.access} whenever RestParam's HostNames or
# Protocol change (docs/EMBEDDING.md, "Host names and HTTPS"), (2) restarts the terminal on
# RestartMachine, InitMachine or an upgrade, and (3) drives the door's relay and reads its sensor,
# kept here as ${BOARD_LAYOUT.door} (docs/API.md, "The door"). The board's API is on the host, which says what it
# has done at http://${BOARD_LAYOUT.apiIp}:${BOARD_LAYOUT.firmwarePort}/ (board/firmware-feed.ts),
# each answer held until something changes; this does the terminal's side.
# (No wget -T: Debian's busybox-static 1.35 wget crashes with it; the host answers within a minute.)
FEED=http://${BOARD_LAYOUT.apiIp}:${BOARD_LAYOUT.firmwarePort}
FILE=${BOARD_LAYOUT.access}
ask() { wget -q -O - "$FEED/$1" 2>/dev/null; }

# (1) The access file, written with a rename: the web server reads a whole file, the old or the new.
access() {
  while :; do
    have=$(sha256sum "$FILE" 2>/dev/null | cut -c1-64)
    if ask "access?have=$have" >/tmp/access.new && [ -s /tmp/access.new ]; then
      if ! cmp -s /tmp/access.new "$FILE"; then
        cp /tmp/access.new "$FILE.next" && sync && mv -f "$FILE.next" "$FILE" && sync
      fi
    else
      sleep 5
    fi
  done
}

# (3) The door's lines: the relay and the sensor as they stand, and the mode (in RAM, gone with a reboot, as GPIO is).
door() {
  while :; do
    have=$(sha256sum ${BOARD_LAYOUT.door} 2>/dev/null | cut -c1-64)
    if ask "door?have=$have" >/tmp/door.new && [ -s /tmp/door.new ]; then
      mv -f /tmp/door.new ${BOARD_LAYOUT.door}
    else
      sleep 5
    fi
  done
}

# (2) A restart of the device's API is a restart of the terminal: the web server goes at once,
# and the board reboots once the API answers again (so the console finds both up, in that order).
restarts() {
  seen=
  while [ -z "$seen" ]; do seen=$(ask restarts) || { seen=; sleep 5; }; done
  while :; do
    n=$(ask "restarts?seen=$seen") || { sleep 5; continue; }
    [ -n "$n" ] && [ "$n" != "$seen" ] || continue
    echo "S70firmware: the device restarts" >/dev/console
    /etc/init.d/S80httpd stop
    until ask api >/dev/null; do sleep 1; done
    exec reboot
  done
}

case "$1" in
  start)
    access </dev/null >/dev/null 2>&1 &
    echo $! > /var/run/firmware.pids
    restarts </dev/null >/dev/null 2>&1 &
    echo $! >> /var/run/firmware.pids
    door </dev/null >/dev/null 2>&1 &
    echo $! >> /var/run/firmware.pids
    ;;
  stop) [ -f /var/run/firmware.pids ] && kill $(cat /var/run/firmware.pids) 2>/dev/null; rm -f /var/run/firmware.pids ;;
  *) echo "usage: $0 start|stop"; exit 2 ;;
esac
`;

/** A SHA-512 crypt hash (openssl passwd -6) with a salt made from the password, so a rebuild gives the same bytes. */
function passwordHash(password: string): string {
  const salt = createHash('sha256').update(`board:${password}`).digest('base64').replace(/[^A-Za-z0-9]/g, '').slice(0, 16);
  const r = spawnSync('openssl', ['passwd', '-6', '-salt', salt, '-stdin'], { input: password, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`openssl passwd -6 failed: ${r.stderr}`);
  return r.stdout.trim();
}

function fileEntry(path: string, host: string): CpioEntry {
  return { path, kind: 'file', data: readFileSync(host), mode: statSync(host).mode & 0o777 };
}

/**
 * The newc archive, and what it holds (for the log). Not compressed: the kernel unpacks it
 * in the guest, where gunzip under TCG cost about a second of each boot (16 MiB here, 6.4 gzipped).
 */
export function buildInitramfs(o: InitramfsOptions): { data: Buffer; files: number; modules: string[] } {
  const entries: CpioEntry[] = [];
  const add = (e: CpioEntry) => entries.push(e);
  for (const d of ['proc', 'sys', 'dev', 'tmp', 'root', 'data', 'etc/init.d', 'var', 'sbin', 'usr/bin', 'usr/sbin']) add({ path: d, kind: 'dir' });
  add({ path: 'dev/console', kind: 'char', major: 5, minor: 1 });
  add({ path: 'dev/null', kind: 'char', major: 1, minor: 3, mode: 0o666 });

  // busybox and its applets, each a link to it.
  const busybox = join(o.dirs['busybox-static'], 'bin/busybox');
  add(fileEntry('bin/busybox', busybox));
  const list = spawnSync(busybox, ['--list-full'], { encoding: 'utf8' });
  if (list.status !== 0) throw new Error(`${busybox} --list-full failed: ${list.stderr}`);
  for (const applet of list.stdout.split('\n').map((s) => s.trim()).filter(Boolean)) {
    if (applet === 'bin/busybox' || applet === 'linuxrc') continue;
    add({ path: applet, kind: 'symlink', target: '/bin/busybox' });
  }

  // lrzsz: rz, rb, sz, sb (and the X variants).
  const lrzsz = join(o.dirs.lrzsz, 'usr/bin');
  for (const f of readdirSync(lrzsz)) add(fileEntry(`usr/bin/${f}`, join(lrzsz, f)));

  // lighttpd, its modules, and every library they load.
  const libs = new Map<string, string>();
  const needs = (file: string) => {
    for (const l of sharedLibraries(file)) libs.set(l.path, l.host);
  };
  const lighttpd = join(o.dirs.lighttpd, 'usr/sbin/lighttpd');
  add(fileEntry('usr/sbin/lighttpd', lighttpd));
  needs(lighttpd);
  for (const pkg of ['lighttpd', 'lighttpd-mod-openssl', 'lighttpd-modules-lua']) {
    const dir = join(o.dirs[pkg], 'usr/lib/lighttpd');
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir).filter((f) => f.endsWith('.so'))) {
      add(fileEntry(`usr/lib/lighttpd/${f}`, join(dir, f)));
      needs(join(dir, f));
    }
  }
  for (const [path, host] of libs) add(fileEntry(path.slice(1), host));

  // Kernel modules, in load order.
  const modulesDir = join(o.kernelDir, 'lib/modules', o.release);
  const order = moduleLoadOrder(modulesDir);
  for (const m of order) add(fileEntry(`lib/modules/${o.release}/${m.path}`, join(modulesDir, m.path)));

  // The system's own files.
  const hostname = o.hostname ?? 'board';
  add({ path: 'init', kind: 'file', data: INIT({ release: o.release, modules: order.map((m) => m.path) }), mode: 0o755 });
  add({ path: 'etc/inittab', kind: 'file', data: INITTAB });
  add({ path: 'etc/init.d/S70firmware', kind: 'file', data: S70FIRMWARE, mode: 0o755 });
  add({ path: 'etc/init.d/S80httpd', kind: 'file', data: S80HTTPD, mode: 0o755 });
  add({ path: 'etc/hostname', kind: 'file', data: `${hostname}\n` });
  add({ path: 'etc/issue', kind: 'file', data: `\nVirtual terminal board (Debian kernel \\r on QEMU), serial console \\l\n\n` });
  add({ path: 'etc/profile', kind: 'file', data: `export PATH=/sbin:/bin:/usr/sbin:/usr/bin\nexport PS1='\\h:\\w\\$ '\ncd ${BOARD_LAYOUT.data} 2>/dev/null || cd /\n` });
  add({ path: 'etc/passwd', kind: 'file', data: `${o.user}:x:0:0:${o.user}:/root:/bin/sh\n` });
  add({ path: 'etc/shadow', kind: 'file', data: `${o.user}:${passwordHash(o.password)}:19000:0:99999:7:::\n`, mode: 0o600 });
  add({ path: 'etc/group', kind: 'file', data: 'root:x:0:\n' });
  add({ path: 'etc/shells', kind: 'file', data: '/bin/sh\n/bin/ash\n' });
  const data = cpio(entries);
  return { data, files: entries.length, modules: order.map((m) => m.name) };
}
