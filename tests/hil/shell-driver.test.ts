// The shell driver against a scripted console: a command that asks a
// question fails at once with the question quoted, the harness types no
// answer (only Ctrl-C), and the console is back at its prompt; a '?' that
// more output follows is not a question. tests/hil/real-shell.test.ts does
// the same with busybox mv on a real ash.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Duplex } from 'node:stream';
import { streamLink } from '../../serial/link.ts';
import { loadConsoleProfile } from '../../serial/console-profile.ts';
import { ConsoleError, QUESTION, ShellDriver } from '../../hil/shell-driver.ts';

/**
 * A console that echoes each command line, then plays `reply(line)`: a list
 * of chunks written one after the other (each in its own write). Ctrl-C
 * gets "^C", a new line and the prompt. Everything the harness typed is kept.
 */
function scriptedConsole(reply: (line: string) => string[]) {
  const typed: string[] = [];
  let line = '';
  const stream = new Duplex({
    read() {},
    write(chunk: Buffer, _encoding, done) {
      heard(chunk);
      done();
    },
  });
  const toHarness = { write: (text: string) => stream.push(Buffer.from(text, 'latin1')) };
  const heard = (chunk: Buffer) => {
    for (const ch of chunk.toString('latin1')) {
      typed.push(ch);
      if (ch === '\x03') {
        line = '';
        toHarness.write('^C\r\n$ ');
      } else if (ch === '\x15') line = '';
      else if (ch === '\r') {
        toHarness.write(`${line}\r\n`);
        const chunks = reply(line);
        line = '';
        // One write per chunk, each on its own turn of the event loop: a line may arrive in pieces.
        (async () => {
          for (const c of chunks) {
            await new Promise((r) => setImmediate(r));
            toHarness.write(c);
          }
        })();
      } else line += ch;
    }
  };
  const link = streamLink(stream);
  const profile = { ...loadConsoleProfile('default'), timeouts: { promptMs: 2000, commandMs: 20_000, transferStartMs: 2000, httpMs: 2000 } };
  const driver = new ShellDriver(link, profile);
  return { driver, link, typed };
}

const asks = (question: string) => () => [question];

for (const question of ["mv: overwrite '/www'? ", 'Overwrite the release [y/N] ', 'Are you sure you want to continue connecting (yes/no/[fingerprint])? ', 'Proceed (y/n): ']) {
  test(`a command that asks ${JSON.stringify(question)} fails at once, quoting it; only Ctrl-C is typed; the console is back at its prompt`, async () => {
    const { driver, link, typed } = scriptedConsole(asks(question));
    const commandMs = 20_000;
    let err: unknown;
    try {
      await driver.run('mv -T /www.next /www', commandMs);
    } catch (e) {
      err = e;
    }
    assert.instance(err, ConsoleError);
    const msg = (err as Error).message;
    assert.ok(msg.includes(`asked ${JSON.stringify(question.trim())} and waits for an answer`), msg);
    assert.not.match(msg, /did not finish|timed out/, 'not waited out');
    assert.match(msg, /the console is back at its prompt/);
    const after = typed.slice(typed.lastIndexOf('\r') + 1).join('');
    assert.is(after, '\x03', 'after the command line: Ctrl-C and nothing else (no y, no n, no Enter)');
    await link.close();
  });
}

test("a '?' that more output follows is output, not a question; the marker ends the command", async () => {
  const { driver, link, typed } = scriptedConsole(() => ['which one?', '\r\nthis one\r\n', 'HIL_OK\r\n', '$ ']);
  assert.is(await driver.run('echo which'), 'which one?\r\nthis one');
  assert.not.ok(typed.includes('\x03'));
  await link.close();
});

test('a command that fails without asking still fails with its output', async () => {
  const { driver, link } = scriptedConsole(() => ["mv: can't rename '/www.next': No such file or directory\r\n", 'HIL_FAIL\r\n', '$ ']);
  try {
    await driver.run('mv -fT /www.next /www');
    assert.unreachable('it failed');
  } catch (e) {
    assert.match((e as Error).message, /failed on the terminal: mv: can't rename/);
  }
  await link.close();
});

/**
 * A receiver cut off in the middle of a block, the way rb is when the harness
 * stops sending: every byte that comes is block data (CANs too), until the
 * line has been quiet for a while; then the block is bad, rb asks again (NAK)
 * and waits for a header, where CAN CAN ends it and the shell prints its prompt.
 */
function receiverMidBlock(quietMs: number) {
  let state: 'block' | 'header' | 'shell' = 'block';
  let cans = 0;
  let timer: NodeJS.Timeout | undefined;
  const stream = new Duplex({
    read() {},
    write(chunk: Buffer, _encoding, done) {
      for (const c of chunk) {
        if (state === 'block') {
          clearTimeout(timer);
          timer = setTimeout(() => {
            state = 'header';
            stream.push(Buffer.from([0x15]));
          }, quietMs);
        } else if (state === 'header') {
          cans = c === 0x18 ? cans + 1 : 0;
          if (cans === 2) {
            state = 'shell';
            stream.push(Buffer.from('\r\nrb: cancelled\r\n$ '));
          }
        } else if (c === 0x0d) stream.push(Buffer.from('\r\n$ '));
      }
      done();
    },
  });
  const link = streamLink(stream);
  const driver = new ShellDriver(link, { ...loadConsoleProfile('default'), timeouts: { promptMs: 2000, commandMs: 2000, transferStartMs: 2000, httpMs: 2000 } });
  return { driver, link, state: () => state, stop: () => clearTimeout(timer) };
}

test('backToPrompt: aborts that rb takes as block data do not end it; its next request is answered with another abort, and the shell prompt comes back', async () => {
  // rb waits out a block longer than the harness's aborts are apart, so all of the first round's go into the block.
  const rx = receiverMidBlock(1500);
  await rx.driver.backToPrompt(4, 10_000);
  assert.is(rx.state(), 'shell', 'the receiver was cancelled');
  rx.stop();
  await rx.link.close();
});

test('backToPrompt: a receiver that never lets go is reported, not waited on for ever', async () => {
  const rx = receiverMidBlock(60_000);
  try {
    await rx.driver.backToPrompt(2, 300);
    assert.unreachable('no prompt');
  } catch (e) {
    assert.instance(e, ConsoleError);
    assert.match((e as Error).message, /no shell prompt after 2 cancels/);
  }
  rx.stop();
  await rx.link.close();
});

test('QUESTION: the forms a question takes, and lines that are not one', () => {
  for (const q of ["mv: overwrite 'www'?", "rm: remove 'x'? ", 'Continue [Y/n] ', 'Continue [y/N]: ', 'Sure (yes/no)? ', 'OK (y/n)']) assert.ok(QUESTION.test(`out\r\n${q}`), q);
  for (const q of ['$ ', '# ', 'copying 3 files', 'what?\r\n', 'done (yes)', 'x?\r\nmore']) assert.not.ok(QUESTION.test(q), q);
});

test.run();
