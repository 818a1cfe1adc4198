// The harness against real shells (issue 14 §5): bash, and Debian's busybox
// ash when installed, each as an unprivileged user behind a login prompt on
// a socat pty, with the real lrzsz rz and rb and a real lighttpd serving
// what the shell installs. A flash, a re-flash of the live build watched by
// a poller, pruning, rollback, rb's lost last ACK, and a signal mid-transfer.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, readFileSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureBuilt } from '../../build.ts';
import { defaultBrand } from '../../build/project.ts';
import { rollbackTerminal, runTerminal, type RunOptions } from '../../hil/harness.ts';
import type { TerminalResult, TerminalTarget } from '../../hil/result.ts';
import { makeImage } from '../../hil/image.ts';
import { fetchRaw } from '../../hil/verify.ts';
import { guarded, type Scope } from '../../hil/paced-line.ts';
import { parseXml } from './xml.ts';
import { loseLastAck, missing, startShellTerminal, type ShellKind, type ShellTerminal } from './real-shell.ts';

const ROOT = join(import.meta.dirname, '../..');
const BRAND = defaultBrand();
const SITE = join(ROOT, 'dist', BRAND);

async function site(): Promise<string> {
  await ensureBuilt(BRAND, { quiet: true });
  return SITE;
}

const target = (t: ShellTerminal, name: string): TerminalTarget => ({ name, serial: t.serial, url: t.url, baud: 115200, brand: BRAND, profile: t.profile });

async function flash(scope: Scope, t: ShellTerminal, name: string, opts: Partial<RunOptions> = {}): Promise<TerminalResult> {
  const lines: string[] = [];
  scope.note(() => `harness log of ${name}:\n${lines.join('\n')}`);
  const r = await runTerminal(target(t, name), { reportRoot: scope.tmpdir('shell-report-'), noSuites: true, log: (l) => lines.push(l), ...opts });
  assert.ok(r.ok, `${name}: ${JSON.stringify(r.steps.filter((s) => !s.ok))}\n${lines.slice(-15).join('\n')}`);
  parseXml(join(r.reportDir, 'junit.xml'));
  return r;
}

/** Release folders made by the harness (not the factory one), oldest first. */
const ours = (t: ShellTerminal) => readdirSync(t.paths.releases).filter((n) => /^\d{8}T/.test(n)).sort();
const live = (t: ShellTerminal) => readlinkSync(t.paths.www).split('/').pop();

for (const kind of ['bash', 'ash'] as ShellKind[]) {
  const why = missing(kind);
  if (why) {
    test(`${kind}: not run here: ${why}`, () => console.log(`real-shell tests for ${kind} skipped: ${why}`));
    continue;
  }

  test(
    `${kind}: YMODEM to rb whose last ACK is lost: the shell coming back ends the batch, nothing is typed into it, the flash passes`,
    guarded(90_000, async (scope) => {
      const lost = loseLastAck();
      const t = await startShellTerminal(scope, kind, await site(), { dropIf: lost.dropIf });
      const r = await flash(scope, t, `${kind}-lost-ack`, { protocol: 'ymodem' });
      // rb on a pty often loses that ACK by itself (it flushes the tty as it exits); when it does send it, the shim drops it.
      assert.ok(lost.seen.dropped <= 1);
      console.log(`${kind}: rb's last ACK ${lost.seen.dropped ? 'dropped by the shim' : 'never sent (rb flushed it away as it exited)'}`);
      assert.is(lost.seen.endBlocks, 1, 'the closing block 0 went out once: never resent into the shell');
      // The cause, as the harness recorded it and the report shows it (not how long it took: that is this machine's speed).
      assert.is(r.transfer!.ended, 'shell back', 'the transfer ended when the shell came back, not at a timeout');
      assert.match(readFileSync(join(r.reportDir, 'report.html'), 'utf8'), /ended: the shell came back in place of the last answer/);
      assert.is(r.transfer!.protocol, 'ymodem');
      // A second run on the same console: nothing left on its line runs, sign-in and every command succeed.
      const again = await flash(scope, t, `${kind}-after-lost-ack`, { protocol: kind === 'bash' ? undefined : 'ymodem' });
      assert.is(again.steps.find((s) => s.name === 'sign in')!.ok, true);
    }),
  );
}

if (!missing('ash')) {
  test(
    "ash: a command that asks (busybox mv onto a /www the console's user cannot write) fails its step at once, quoting the question; nothing is answered; the old release serves; the next run flashes",
    guarded(90_000, async (scope) => {
      const t = await startShellTerminal(scope, 'ash', await site());
      // /www -> r1, a folder the shell's user cannot write: busybox mv (input a terminal) asks before replacing it.
      const r1 = join(t.paths.releases, 'r1');
      if (process.getuid?.() !== 0) {
        chmodSync(r1, 0o555);
        scope.defer('make r1 writable again', () => chmodSync(r1, 0o755));
      }
      // A profile tried on a desktop shell only: GNU mv -T does not ask there.
      const asking = join(scope.tmpdir('asking-'), 'profile.json');
      const own = JSON.parse(readFileSync(t.profile, 'utf8'));
      writeFileSync(asking, JSON.stringify({ ...own, commands: { ...own.commands, setLink: 'ln -sfn {target} {link}.next && mv -T {link}.next {link}' } }));
      const lines: string[] = [];
      scope.note(() => `harness log:\n${lines.join('\n')}`);
      const r = await runTerminal({ ...target(t, 'asks'), profile: asking }, { reportRoot: scope.tmpdir('shell-report-'), noSuites: true, log: (l) => lines.push(l) });
      assert.not.ok(r.ok);
      const failed = r.steps.find((s) => !s.ok)!;
      assert.is(failed.name, 'install');
      assert.match(failed.detail, /asked "mv: overwrite '[^']*www'\?" and waits for an answer; the harness answers no question/, failed.detail);
      assert.not.match(failed.detail, /did not finish|timed out/, 'the question was not waited out');
      assert.match(failed.detail, /the console is back at its prompt/);
      assert.is(live(t), 'r1', 'the old release still serves');
      assert.match(readFileSync(join(r.reportDir, 'junit.xml'), 'utf8'), /mv: overwrite/);
      // The same console, the default commands (mv -fT): sign-in, transfer, install and the served files pass.
      const next = await flash(scope, t, 'after-question');
      assert.is(live(t), next.releases!.live);
      assert.is(next.releases!.previous, 'r1');
    }),
  );
}

if (!missing('bash')) {
  test(
    'bash: ZMODEM flash; a re-flash of the live build never serves a miss; the third prunes the first; rollback and back',
    guarded(150_000, async (scope) => {
      const t = await startShellTerminal(scope, 'bash', await site());
      const first = await flash(scope, t, 'first');
      assert.is(first.transfer!.protocol, 'zmodem', 'the terminal has rz: ZMODEM');
      assert.equal(ours(t), [first.releases!.live]);
      assert.is(live(t), first.releases!.live);
      assert.is(first.releases!.previous, 'r1', 'the factory release is kept for --rollback');

      // The same build again while a client keeps asking for index.html and every other file.
      const image = makeImage(SITE);
      const paths = image.manifest.files.map((f) => ({ url: f.path === 'index.html' ? '/' : `/${f.path}`, sha: f.sha256 }));
      const misses: string[] = [];
      let polls = 0;
      let polling = true;
      const poller = (async () => {
        while (polling) {
          const p = paths[polls++ % paths.length];
          const res = await fetchRaw(new URL(p.url, t.url).href, 5000).catch((e: Error) => ({ status: 0, body: Buffer.from(e.message), headers: {} }));
          const sha = createHash('sha256').update(res.body).digest('hex');
          if (res.status !== 200 || sha !== p.sha) misses.push(`${p.url}: HTTP ${res.status}${res.status === 200 ? ', other bytes' : ''}`);
        }
      })();
      const second = await flash(scope, t, 'second');
      polling = false;
      await poller;
      assert.ok(polls > 50, `the poller kept asking during the re-flash (${polls} requests)`);
      assert.equal(misses, [], 'old or new, never a miss');
      assert.is.not(second.releases!.live, first.releases!.live, 'a new folder, even for the same build');
      assert.is(second.releases!.previous, first.releases!.live);

      const third = await flash(scope, t, 'third');
      assert.equal(third.releases!.removed, [first.releases!.live], 'keepReleases 2: the live one and the one before it');
      assert.equal(ours(t), [second.releases!.live, third.releases!.live]);
      assert.ok(readdirSync(t.paths.releases).includes('r1'), "a folder the harness did not make is not pruned");

      const back = await rollbackTerminal(target(t, 'rollback'), { reportRoot: scope.tmpdir('shell-report-'), log: () => undefined });
      assert.ok(back.ok, JSON.stringify(back.steps));
      parseXml(join(back.reportDir, 'junit.xml'));
      assert.is(live(t), second.releases!.live, '/www points at the release before');
      assert.ok(back.files.length > 5 && back.files.every((f) => f.ok), 'every file served matches that release');
      const again = await rollbackTerminal(target(t, 'rollback-again'), { reportRoot: scope.tmpdir('shell-report-'), log: () => undefined });
      assert.ok(again.ok, JSON.stringify(again.steps));
      assert.is(live(t), third.releases!.live, 'rolling back twice returns');
    }),
  );

  test(
    'bash: SIGTERM mid-transfer on a paced line: rb is cancelled, the console restored, the report names the step, exit 143; a run right after passes',
    guarded(120_000, async (scope) => {
      const t = await startShellTerminal(scope, 'bash', await site(), { baud: 460800 }); // slow enough to stop half way, quick enough for npm test
      const report = scope.tmpdir('shell-report-');
      const child = spawn(process.execPath, ['--import', 'tsx', 'hil/cli.ts', '--serial', t.serial, '--url', t.url, '--console-profile', t.profile, '--brand', BRAND, '--no-suites', '--protocol', 'ymodem', '--name', 'cut', '--report', report], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      scope.defer('stop the harness', () => void child.kill('SIGKILL'));
      let out = '';
      let signalled = false;
      const onOut = (c: Buffer) => {
        out += c;
        // The first progress line: block 0 went through, data is flowing.
        if (!signalled && /YMODEM \[/.test(out)) {
          signalled = true;
          setTimeout(() => child.kill('SIGTERM'), 1000);
        }
      };
      child.stdout.on('data', onOut);
      child.stderr.on('data', onOut);
      const code = await new Promise<number | null>((r) => child.on('close', (c) => r(c)));
      assert.ok(signalled, out.slice(-2000));
      assert.is(code, 143, out.slice(-2000));
      const r = JSON.parse(readFileSync(join(report, 'cut', 'report.json'), 'utf8')) as TerminalResult;
      assert.equal(r.interrupted, { signal: 'SIGTERM', step: 'transfer' });
      assert.equal(r.steps.at(-1), { ...r.steps.at(-1)!, name: 'transfer', ok: false, detail: 'interrupted by SIGTERM' });
      assert.not.ok(r.steps.some((s) => s.name === 'install'), 'nothing installed');
      parseXml(join(report, 'cut', 'junit.xml'));
      assert.match(out, /console restored/, out.slice(-1500));
      // No receiver left behind on this console (another test's rb may run beside it).
      assert.equal(t.running('rb'), [], 'rb has exited');
      // Right away, within the minute rb would have kept asking: sign-in and a whole flash work.
      const next = await flash(scope, t, 'next');
      assert.ok(next.transfer!.bytes > 0);
    }),
  );
}

test.run();
