// hil/lab/labgrid-hil.sh, the labgrid recipe of docs/HIL.md, run with a
// stand-in labgrid-client and npm on PATH: the stand-in matches places as
// labgrid-client 25 and 26 do (labgrid/remote/client.py, get_place: the place
// named exactly so, else the one place whose name or alias contains the
// pattern), refuses to release a place that is not acquired, fails the
// acquire a test tells it to, and answers env with an environment file as
// labgrid dumps it. Each test reads the calls it received, in order.
// The script reads YAML with python3's PyYAML (Debian: python3-yaml), as it
// would with the Python labgrid runs on.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const SCRIPT = join(ROOT, 'hil/lab/labgrid-hil.sh');

const FAKE_CLIENT = `#!/bin/sh
# labgrid-client -p PATTERN acquire|release|env, on the places in $FAKE_LG/places ("name alias...").
echo "$*" >> "$FAKE_LG/calls"
[ "$1" = -p ] || { echo "stand-in: -p PLACE first" >&2; exit 2; }
pattern=$2
cmd=$3
matches=
place=
while read -r name aliases; do
  if [ "$name" = "$pattern" ]; then place=$name; break; fi
  for n in $name $aliases; do
    case $n in *"$pattern"*) matches="$matches $name"; break;; esac
  done
done < "$FAKE_LG/places"
if [ -z "$place" ]; then
  set -- $matches
  [ $# -eq 1 ] || { echo "pattern $pattern matches $# places" >&2; exit 1; }
  place=$1
fi
case $cmd in
  acquire)
    n=$(( $(cat "$FAKE_LG/acquires" 2>/dev/null || echo 0) + 1 ))
    echo $n > "$FAKE_LG/acquires"
    if [ "$n" = "\${FAKE_FAIL_ACQUIRE:-0}" ] || [ -e "$FAKE_LG/acquired.$place" ]; then
      echo "place $place is not idle (acquired by ci/other)" >&2; exit 1
    fi
    touch "$FAKE_LG/acquired.$place"; echo "acquired place $place";;
  release)
    [ -e "$FAKE_LG/acquired.$place" ] || { echo "place $place is not acquired" >&2; exit 1; }
    rm "$FAKE_LG/acquired.$place"; echo "released place $place";;
  env)
    [ -e "$FAKE_LG/acquired.$place" ] || { echo "place $place is not acquired" >&2; exit 1; }
    cat "$FAKE_LG/env.$place.yaml";;
  *) exit 2;;
esac
`;

/** npm run hil: records its arguments and the inventory it was given, then exits with $FAKE_NPM_STATUS, or waits to be signalled with FAKE_NPM_WAIT. */
const FAKE_NPM = `#!/bin/sh
echo "npm $*" >> "$FAKE_LG/calls"
cp "$5" "$FAKE_LG/inventory.json"
[ -z "\${FAKE_NPM_WAIT:-}" ] || { touch "$FAKE_LG/harness-running"; exec sleep 60; }
exit "\${FAKE_NPM_STATUS:-0}"
`;

/** An environment file as labgrid-client env prints it (PyYAML's block style, a renamed resource's name first, the rest sorted). */
function envYaml(place: string, o: { port: number; address: string; protocol?: string | null }): string {
  const protocol = o.protocol === null ? '' : `        protocol: ${o.protocol ?? 'raw'}\n`;
  return `targets:
  ${place}:
    resources:
    - NetworkSerialPort:
        host: benchhost
        port: ${o.port}
${protocol}        speed: 115200
    - NetworkService:
        address: ${o.address}
        username: root
    - NetworkPowerPort:
        name: mains
        host: pdu1
        index: '3'
        model: gude
`;
}

interface Lab {
  dir: string;
  bin: string;
  state: string;
}

/** A lab of three places: bench-1, bench-10 and lab-two (alias b2), each with its environment file. */
function lab(): Lab {
  const dir = mkdtempSync(join(tmpdir(), 'labgrid-hil-'));
  const bin = join(dir, 'bin');
  const state = join(dir, 'state');
  mkdirSync(bin);
  mkdirSync(state);
  writeFileSync(join(bin, 'labgrid-client'), FAKE_CLIENT);
  writeFileSync(join(bin, 'npm'), FAKE_NPM);
  chmodSync(join(bin, 'labgrid-client'), 0o755);
  chmodSync(join(bin, 'npm'), 0o755);
  writeFileSync(join(state, 'places'), 'bench-1\nbench-10\nlab-two b2\n');
  writeFileSync(join(state, 'env.bench-1.yaml'), envYaml('bench-1', { port: 4001, address: '192.168.1.50' }));
  writeFileSync(join(state, 'env.bench-10.yaml'), envYaml('bench-10', { port: 4010, address: '192.168.1.60' }));
  writeFileSync(join(state, 'env.lab-two.yaml'), envYaml('lab-two', { port: 4002, address: '192.168.1.51' }));
  return { dir, bin, state };
}

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  err: string;
  /** Every call to labgrid-client and npm, in order. */
  calls: string[];
}

/** The script run in the lab's folder with the stand-ins first on PATH; `during` runs once the stand-in harness has started (FAKE_NPM_WAIT). */
function runScript(l: Lab, args: string[], env: Record<string, string> = {}, during?: (pid: number) => void): Promise<Run> {
  return new Promise((res) => {
    const child = spawn(SCRIPT, args, { cwd: l.dir, detached: true, env: { ...process.env, PATH: `${l.bin}:${process.env.PATH}`, FAKE_LG: l.state, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stdout.on('data', () => undefined);
    child.stderr.on('data', (d) => (err += d));
    if (during) {
      const poll = setInterval(() => {
        if (!existsSync(join(l.state, 'harness-running'))) return;
        clearInterval(poll);
        during(child.pid!);
      }, 20);
      child.on('exit', () => clearInterval(poll));
    }
    child.on('close', (code, signal) => {
      const file = join(l.state, 'calls');
      res({ code, signal, err, calls: existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n') : [] });
    });
  });
}

const still = (l: Lab) => ['bench-1', 'bench-10', 'lab-two'].filter((p) => existsSync(join(l.state, `acquired.${p}`)));

test('acquires the places, writes the inventory from their environment files, runs the harness, releases each by its full name', async () => {
  const l = lab();
  try {
    const r = await runScript(l, ['bench-1', 'b2', '--', '--split-suites']);
    assert.is(r.code, 0, r.err);
    assert.equal(r.calls, [
      '-p bench-1 acquire',
      '-p bench-1 env',
      '-p b2 acquire',
      '-p b2 env',
      'npm run hil -- --inventory lab/terminals.json --split-suites',
      '-p bench-1 release',
      '-p lab-two release',
    ], 'bench-1 is the exact name (bench-10 contains it too); b2, an alias, is released as lab-two, the name env gave');
    assert.match(r.err, 'b2 is the place lab-two');
    assert.equal(JSON.parse(readFileSync(join(l.state, 'inventory.json'), 'utf8')), {
      terminals: [
        { name: 'bench-1', serial: 'tcp://benchhost:4001', url: 'http://192.168.1.50' },
        { name: 'lab-two', serial: 'tcp://benchhost:4002', url: 'http://192.168.1.51' },
      ],
    });
    assert.ok(existsSync(join(l.dir, 'lab/bench-1.env.yaml')) && existsSync(join(l.dir, 'lab/lab-two.env.yaml')), 'each environment file kept under its place\'s full name');
    assert.equal(still(l), []);
  } finally {
    rmSync(l.dir, { recursive: true, force: true });
  }
});

test('the second acquire fails: the first place is released, the second is not (it was never acquired), the harness does not run', async () => {
  const l = lab();
  try {
    const r = await runScript(l, ['bench-1', 'lab-two'], { FAKE_FAIL_ACQUIRE: '2' });
    assert.is(r.code, 1, r.err);
    assert.equal(r.calls, ['-p bench-1 acquire', '-p bench-1 env', '-p lab-two acquire', '-p bench-1 release']);
    assert.not.match(r.err, 'is not acquired', 'no release of a place it did not acquire');
    assert.equal(still(l), []);
  } finally {
    rmSync(l.dir, { recursive: true, force: true });
  }
});

test('a place that -p cannot pick out (a part of two names) fails its acquire; nothing is released', async () => {
  const l = lab();
  try {
    const r = await runScript(l, ['bench']);
    assert.is(r.code, 1);
    assert.match(r.err, 'pattern bench matches 2 places');
    assert.equal(r.calls, ['-p bench acquire']);
  } finally {
    rmSync(l.dir, { recursive: true, force: true });
  }
});

test('a console exported over RFC 2217 stops the run before the harness, with the place named; both places released', async () => {
  const l = lab();
  try {
    // As labgrid-exporter publishes a USBSerialPort it serves itself: no protocol, which means rfc2217.
    writeFileSync(join(l.state, 'env.lab-two.yaml'), envYaml('lab-two', { port: 4002, address: '192.168.1.51', protocol: null }));
    const r = await runScript(l, ['bench-1', 'lab-two']);
    assert.is.not(r.code, 0);
    assert.match(r.err, 'lab-two: its NetworkSerialPort speaks rfc2217; the harness needs raw');
    assert.equal(r.calls, ['-p bench-1 acquire', '-p bench-1 env', '-p lab-two acquire', '-p lab-two env', '-p bench-1 release', '-p lab-two release']);
  } finally {
    rmSync(l.dir, { recursive: true, force: true });
  }
});

test('the harness failing or the job cancelled (SIGTERM to its process group) still releases every place; the exit status says which', async () => {
  const l = lab();
  try {
    const failed = await runScript(l, ['bench-1', 'lab-two'], { FAKE_NPM_STATUS: '1' });
    assert.is(failed.code, 1, failed.err);
    assert.equal(failed.calls.slice(-3), ['npm run hil -- --inventory lab/terminals.json', '-p bench-1 release', '-p lab-two release']);
    rmSync(join(l.state, 'calls'));
    rmSync(join(l.state, 'acquires'));
    const cancelled = await runScript(l, ['bench-1', 'lab-two'], { FAKE_NPM_WAIT: '1' }, (pid) => process.kill(-pid, 'SIGTERM'));
    assert.is(cancelled.code, 143, cancelled.err);
    assert.equal(cancelled.calls.slice(-3), ['npm run hil -- --inventory lab/terminals.json', '-p bench-1 release', '-p lab-two release']);
    assert.equal(still(l), []);
  } finally {
    rmSync(l.dir, { recursive: true, force: true });
  }
});

test('a Python without PyYAML is named before anything is acquired', async () => {
  const l = lab();
  try {
    // The python3 beside labgrid-client (as in labgrid's virtualenv) is the one the script takes; this one runs without site-packages.
    const python = execFileSync('sh', ['-c', 'command -v python3'], { encoding: 'utf8' }).trim();
    writeFileSync(join(l.bin, 'python3'), `#!/bin/sh\nexec ${python} -S "$@"\n`);
    chmodSync(join(l.bin, 'python3'), 0o755);
    const r = await runScript(l, ['bench-1']);
    assert.is(r.code, 2);
    assert.match(r.err, `${join(l.bin, 'python3')} has no yaml module (PyYAML, which labgrid depends on): set LABGRID_PYTHON`);
    assert.equal(r.calls, []);
  } finally {
    rmSync(l.dir, { recursive: true, force: true });
  }
});

test.run();
