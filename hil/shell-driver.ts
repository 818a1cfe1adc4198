// Drives a terminal's serial console: sign in at the login prompt and run
// commands, telling success from failure by a marker the command prints.
import { LinkTimeout, type ByteLink } from '../serial/link.ts';
import { ABORT } from '../serial/zmodem/frame.ts';
import type { ConsoleProfile } from '../serial/console-profile.ts';

export class ConsoleError extends Error {}

/** Ctrl-U: the tty or line editor drops whatever is typed on the line. */
const KILL_LINE = '\x15';

/** The success marker a started command prints; the shell's prompt follows it. */
export const MARKER = /^HIL_(OK|FAIL)\r?$/m;

/**
 * A command asking something: the last line, left open (no newline after
 * it), ends in a question mark, [y/N], (yes/no) and the like. busybox mv
 * asks "mv: overwrite '/www'?" when its input is a terminal and the target
 * is not writable; cp -i, rm -i and ssh's host-key question look alike.
 */
export const QUESTION = /[^\r\n]*(?:\?|\[[yn]\/[yn]\]|\((?:y|yes)\/(?:n|no)[^)\r\n]*\))[ \t]*[?:]?[ \t]*(?![\s\S])/i;

/**
 * How long a question must stand with nothing after it before it counts as
 * one: output that merely paused after a '?' (a paced line delivers a line in
 * pieces) goes on within this. A program that asks waits for ever.
 */
export const QUESTION_QUIET_MS = 500;

/** Ctrl-C: the tty interrupts the program in the foreground (the one that asked). */
const INTERRUPT = '\x03';

export class ShellDriver {
  private readonly shell: RegExp;

  constructor(
    readonly link: ByteLink,
    readonly profile: ConsoleProfile,
    private readonly log: (line: string) => void = () => undefined,
  ) {
    this.shell = new RegExp(profile.prompts.shell, 'm');
  }

  /** The shell's prompt pattern (for a transfer to recognise the shell coming back). */
  get prompt(): RegExp {
    return this.shell;
  }

  /**
   * A previous run may have left a receiver running (rb keeps asking for a
   * minute) or junk on the line: cancel the one, wait for a quiet line, drop
   * the other. Returns how many bytes were thrown away.
   */
  async clear(): Promise<number> {
    let dropped = this.link.drain().length;
    // rb flushes its input right after each ACK, so a cancel that lands just
    // then is lost and rb waits ten seconds for a block: three, a moment apart.
    for (let i = 0; i < 3; i++) {
      await this.link.write(ABORT); // lrzsz's abort: rb and rz quit on it, a line editor gets it rubbed out
      await new Promise((r) => setTimeout(r, 400));
      dropped += this.link.drain().length;
    }
    dropped += (await this.link.settle(300, 5000)).length;
    await this.link.write(KILL_LINE);
    return dropped + (await this.link.settle(100, 1000)).length;
  }

  /**
   * Cancel a receiver still running on the console and reach the shell's
   * prompt. An abort that lands while rb is reading a block is taken as the
   * block's data; rb then waits out the block and asks again (NAK, or 'C' for
   * a header), and at that moment an abort ends it. So: abort, press Enter,
   * and wait for the prompt or for the receiver's next request, and abort
   * again on the request. Each round waits for one of the two, not for a time.
   */
  async backToPrompt(rounds = 4, roundMs = Math.max(this.profile.timeouts.promptMs, 15_000)): Promise<void> {
    const either = new RegExp(`(${this.profile.prompts.shell})|[\x15C]`, 'm');
    let last = '';
    for (let i = 0; i < rounds; i++) {
      await this.clear();
      await this.link.write('\r');
      last = await this.link.expect(either, roundMs).catch((e) => (e instanceof LinkTimeout ? '' : Promise.reject(e)));
      if (this.shell.test(last)) return;
    }
    throw new ConsoleError(`no shell prompt after ${rounds} cancels (last seen: ${JSON.stringify(last.slice(-80))})`);
  }

  /** Reach a shell prompt, signing in if the console asks. */
  async signIn(): Promise<void> {
    const p = this.profile;
    const t = p.timeouts.promptMs;
    const any = new RegExp(`(${p.prompts.login})|(${p.prompts.shell})`, 'm');
    const cleared = await this.clear();
    if (cleared > 0) this.log(`console: line cleared (${cleared} bytes were waiting on it)`);
    await this.link.write('\r');
    let seen = await this.link.expect(any, t).catch((e) => {
      throw new ConsoleError(`no login or shell prompt on the serial console: ${(e as Error).message}`);
    });
    if (new RegExp(p.prompts.shell, 'm').test(seen) && !new RegExp(p.prompts.login, 'm').test(seen)) {
      this.log('console: already at a shell prompt');
      return;
    }
    this.log(`console: signing in as ${p.user}`);
    await this.link.write(`${p.user}\r`);
    await this.link.expect(new RegExp(p.prompts.password, 'm'), t);
    await this.link.write(`${p.password}\r`);
    seen = await this.link.expect(new RegExp(`(${p.prompts.loginFailed})|(${p.prompts.shell})`, 'm'), t);
    if (new RegExp(p.prompts.loginFailed).test(seen)) throw new ConsoleError(`the terminal refused the console login for ${p.user} (check the profile or HIL_USER / HIL_PASSWORD)`);
    await this.link.settle(100, 1000);
  }

  /**
   * Start a command; returns once the terminal has echoed it. The command is
   * followed by a marker that says whether it succeeded; the marker is quoted
   * so that the echoed command line does not match it.
   */
  async start(command: string): Promise<void> {
    this.log(`console: ${command}`);
    this.link.drain();
    // Ctrl-U first: nothing a transfer may have typed on the line runs with the command.
    await this.link.write(`${KILL_LINE}${command} && echo 'HIL'_OK || echo 'HIL'_FAIL\r`);
    await this.link.expect(/\r?\n/, this.profile.timeouts.promptMs);
  }

  /**
   * Wait for a started command's marker and prompt; returns its output,
   * throws if it failed. A command that asks a question fails at once, with
   * the question in the message: the harness answers nothing (an answer
   * typed by a harness is a decision nobody made). It interrupts the
   * command (Ctrl-C) so that the console is back at its prompt.
   */
  async finish(command: string, timeoutMs = this.profile.timeouts.commandMs): Promise<string> {
    const text = await this.untilMarker(command, timeoutMs);
    await this.link.expect(this.shell, this.profile.timeouts.promptMs).catch(() => '');
    const output = text.replace(MARKER, '').trim();
    if (/^HIL_FAIL/m.test(text)) throw new ConsoleError(`"${command}" failed on the terminal${output ? `: ${output}` : ''}`);
    return output;
  }

  /** The text up to the marker; ConsoleError on a question or when the marker does not come. */
  private async untilMarker(command: string, timeoutMs: number): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    const either = new RegExp(`${MARKER.source}|${QUESTION.source}`, 'mi');
    for (;;) {
      const text = await this.link.expect(either, Math.max(1, deadline - Date.now())).catch((e) => {
        throw new ConsoleError(`"${command}" did not finish: ${(e as Error).message}`);
      });
      if (MARKER.test(text)) return text;
      // Text that ends like a question: it is one if nothing follows it.
      const next = await this.link.readByte(QUESTION_QUIET_MS).catch((e) => {
        if (e instanceof LinkTimeout) return null;
        throw e;
      });
      if (next !== null) {
        this.link.unread(Buffer.concat([Buffer.from(text, 'latin1'), Buffer.from([next])]));
        continue;
      }
      const question = QUESTION.exec(text)![0].trim();
      this.log(`console: "${command}" asks ${JSON.stringify(question)}; interrupting it (Ctrl-C), answering nothing`);
      await this.link.write(INTERRUPT);
      const back = await this.link.expect(this.shell, this.profile.timeouts.promptMs).then(() => true, () => false);
      throw new ConsoleError(
        `"${command}" asked ${JSON.stringify(question)} and waits for an answer; the harness answers no question. ` +
          `Make the profile's command one that cannot ask (mv -f, rm -f, cp -f, ln -sfn). ` +
          (back ? 'The command was interrupted; the console is back at its prompt.' : 'Ctrl-C did not bring the prompt back; the next sign-in clears the line.'),
      );
    }
  }

  /** Run a command to completion. */
  async run(command: string, timeoutMs?: number): Promise<string> {
    await this.start(command);
    return this.finish(command, timeoutMs);
  }
}
