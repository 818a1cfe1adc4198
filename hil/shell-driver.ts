// Drives a terminal's serial console: sign in at the login prompt and run
// commands, telling success from failure by a marker the command prints.
import type { ByteLink } from './link.ts';
import type { TerminalProfile } from './profile.ts';

export class ConsoleError extends Error {}

export class ShellDriver {
  private readonly shell: RegExp;

  constructor(
    readonly link: ByteLink,
    readonly profile: TerminalProfile,
    private readonly log: (line: string) => void = () => undefined,
  ) {
    this.shell = new RegExp(profile.prompts.shell, 'm');
  }

  /** Reach a shell prompt, signing in if the console asks. */
  async signIn(): Promise<void> {
    const p = this.profile;
    const t = p.timeouts.promptMs;
    const any = new RegExp(`(${p.prompts.login})|(${p.prompts.shell})`, 'm');
    this.link.drain();
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
    await this.link.write(`${command} && echo 'HIL'_OK || echo 'HIL'_FAIL\r`);
    await this.link.expect(/\r?\n/, this.profile.timeouts.promptMs);
  }

  /** Wait for a started command's marker and prompt; returns its output, throws if it failed. */
  async finish(command: string, timeoutMs = this.profile.timeouts.commandMs): Promise<string> {
    const text = await this.link.expect(/^HIL_(OK|FAIL)\r?$/m, timeoutMs).catch((e) => {
      throw new ConsoleError(`"${command}" did not finish: ${(e as Error).message}`);
    });
    await this.link.expect(this.shell, this.profile.timeouts.promptMs).catch(() => '');
    const output = text.replace(/^HIL_(OK|FAIL)\r?$/m, '').trim();
    if (/^HIL_FAIL/m.test(text)) throw new ConsoleError(`"${command}" failed on the terminal${output ? `: ${output}` : ''}`);
    return output;
  }

  /** Run a command to completion. */
  async run(command: string, timeoutMs?: number): Promise<string> {
    await this.start(command);
    return this.finish(command, timeoutMs);
  }
}
