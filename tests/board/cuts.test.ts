// Power cuts on the virtual board (hil/power-cuts.ts): three flashes, each
// cut by a SIGKILL of QEMU inside one phase (the transfer, around the swap,
// the pruning), then a boot on the same disk and the checks: lighttpd serves
// a complete release, old or new; the factory release and the rollback
// target are intact; the next flash passes. The first cut, in the transfer,
// is aimed by the bytes sent, so no flash comes before it. The 50-cut run is
// `npm run test:board`.
//   node --import tsx --import ./tests/support/register.mjs node_modules/uvu/bin.js tests/board '^cuts\.test\.ts$'
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ensureBuilt } from '../../build.ts';
import { FlashWatch, MARKS, compact, commandStart, runCuts, type CutsResult, type Mark } from '../../hil/power-cuts.ts';
import { prng } from '../../simulator/prng.ts';
import { missingHostTools } from '../../board/packages.ts';
import { fill, loadConsoleProfile } from '../../serial/console-profile.ts';

const test = suite('power cuts on the virtual board');
let r: CutsResult;

test('the PRNG replays from its seed; command lines are found in an echo however the line editor wraps them', () => {
  const a = prng(26);
  const b = prng(26);
  const xs = Array.from({ length: 5 }, () => a());
  assert.equal(xs, Array.from({ length: 5 }, () => b()));
  assert.ok(xs.every((x) => x >= 0 && x < 1));
  assert.is.not(prng(27)(), xs[0]);
  const p = loadConsoleProfile('board');
  assert.is(commandStart(p, 'unpack'), 'mkdir-p/data/www.d/');
  assert.is(commandStart(p, 'readLink'), 'readlink');
  // busybox ash at the last column: a space and a backspace, or a CR and an escape sequence.
  assert.ok(compact('# mkdir -p /data/ww \bw.d/x && tar -xf /tmp/a\r\x1b[K -C y').includes('mkdir-p/data/www.d/x&&tar-xf/tmp/a-Cy'));
});

test('a transfer\'s cut is aimed by the harness\'s progress lines, heard only between the transfer\'s echo and the checksum\'s', () => {
  const p = loadConsoleProfile('board');
  const watch = new FlashWatch(p);
  const heard: Array<[number, number]> = [];
  watch.onProgress = (sent, total) => heard.push([sent, total]);
  const line = (sent: number) => `[board] ZMODEM [######..................] ${sent}/258048 B  21.8 kB/s  ETA 0:08`;
  watch.harness(line(0));
  watch.serial(Buffer.from(`# ${fill(p.commands.receiveZmodem!, { tmp: '/tmp' }, p)}\r\n`));
  assert.equal(watch.seen, ['transfer']);
  watch.harness(line(65536));
  watch.harness('[board] connect: ok');
  watch.serial(Buffer.from(`# ${fill(p.commands.sha256!, { tmp: '/tmp', image: 'console.tar' }, p)}\r\n`));
  watch.harness(line(258048));
  assert.equal(watch.seen, ['transfer', 'checksum']);
  assert.equal(heard, [[65536, 258048]]);
});

test.before(async () => {
  const missing = missingHostTools();
  if (missing) throw new Error(`the board needs: ${missing}`);
  await ensureBuilt('ia');
});

test('three cuts, aimed at the transfer, the swap and the pruning: each comes once its phase has begun, none leaves the board broken', async () => {
  r = await runCuts({ cuts: 3, seed: 2026, phases: ['transfer', 'swap', 'prune'], spread: 0.5, brand: 'ia', log: (l) => console.log(l) });
  console.log(r.summary);
  for (const c of r.cuts) {
    // The cut comes a share of the phase's length (as the flash before timed it) after the phase's mark: on a busy
    // machine that can be after the phase's end. What holds on any machine: the marks in a flash's order, through the
    // phase aimed at at least.
    const upTo = MARKS.indexOf(c.phase as Mark) + 1;
    assert.equal(c.placed.seen.slice(0, upTo), MARKS.slice(0, upTo), `cut ${c.n}: the marks in order up to ${c.phase} (seen: ${c.placed.seen.join(' ')})`);
    assert.equal(c.placed.seen, MARKS.slice(0, c.placed.seen.length), `cut ${c.n}: the marks in a flash's order`);
    assert.is(c.problems.length, 0, `cut ${c.n}: ${c.problems.join('; ')}`);
  }
  assert.is(r.broken, 0, r.summary);
  const [transfer, swap, prune] = r.cuts;
  // Cut in the transfer (aimed by the bytes sent, so inside it on any machine): nothing was unpacked, the old release serves.
  assert.is(transfer.placed.phase, 'transfer', `the first cut came in ${transfer.placed.phase}`);
  assert.is(transfer.outcome, 'old');
  assert.is(transfer.made, undefined);
  assert.is(transfer.live, transfer.before);
  // Around the swap or after it: the one or the other, whole.
  assert.ok(swap.outcome === 'old' || swap.outcome === 'new', swap.outcome);
  assert.ok(swap.made, 'the unpack had started');
  // In the pruning the swap is behind: the new release serves, and it is the folder that flash made.
  assert.is(prune.outcome, 'new');
  assert.is(prune.live.split('/').pop(), prune.made);
  assert.match(r.summary, /^3 cuts: \d old, \d new, 0 broken$/);
});

test.run();
