// The simulated terminal's shell: a tiny busybox-like shell over a sandbox
// folder (shell/sandbox.ts, the file system). It reads a command line
// (shell/line.ts) and runs each command: its own built-ins here, the file
// commands (shell/files.ts) and the ones a flash uses (shell/install.ts).
// Nothing runs on the host: every command is a function.
import { existsSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { errno, normalizeIn, resolveIn, why, type Resolved } from './shell/sandbox.ts';
import { SyntaxError_, parse, type Command } from './shell/line.ts';
import { Fail, flags, type SandboxShellOptions, type ShellContext, type ShellIO } from './shell/command.ts';
import { cat, ln, ls, mkdir, mv, readlink, rm } from './shell/files.ts';
import { httpd, rb, sha256sum, tar } from './shell/install.ts';

export interface RunResult {
  /** Exit status of the last command that ran. */
  status: number;
  /** exit/logout: back to the login prompt. */
  exit: boolean;
}

const COMMANDS = [
  'cat', 'cd', 'echo', 'exit', 'false', 'help', 'hostname', 'ln', 'logout', 'ls', 'mkdir', 'mv', 'pwd',
  'rb', 'readlink', 'rm', 'sha256sum', 'sleep', 'sync', 'tar', 'true', 'uname', '/etc/init.d/S80httpd',
];

export class SandboxShell implements ShellContext {
  readonly root: string;
  readonly hostname: string;
  readonly home: string;
  /** Current folder (terminal path, logical as ash keeps it). */
  cwd: string;
  private exiting = false;

  constructor(readonly opts: SandboxShellOptions) {
    this.root = realpathSync(opts.root);
    this.hostname = opts.hostname ?? 'terminal';
    this.home = opts.home ?? '/root';
    this.cwd = existsSync(join(this.root, this.home)) ? this.home : '/';
  }

  /** A new login: back home. */
  reset(): void {
    this.cwd = existsSync(join(this.root, this.home)) ? this.home : '/';
    this.exiting = false;
  }

  /** busybox's default PS1 (\w \$): the cwd with ~ for home, then "# ". */
  prompt(): string {
    const w = this.cwd === this.home ? '~' : this.cwd.startsWith(`${this.home}/`) ? `~${this.cwd.slice(this.home.length)}` : this.cwd;
    return `${w} # `;
  }

  /** Resolve a terminal path against the cwd. */
  resolve(path: string, follow = true): Resolved {
    return resolveIn(this.root, path, this.cwd, follow);
  }

  /** Run one command line. */
  async run(line: string, io: ShellIO): Promise<RunResult> {
    const print = (text: string) => io.write(text.replace(/\r?\n/g, '\r\n'));
    let cmds: Command[];
    try {
      cmds = parse(line);
    } catch (e) {
      if (!(e instanceof SyntaxError_)) throw e;
      await print(`sh: syntax error: ${e.message}\n`);
      return { status: 2, exit: false };
    }
    let status = 0;
    this.exiting = false;
    for (const c of cmds) {
      if (c.op === '&&' && status !== 0) continue;
      if (c.op === '||' && status === 0) continue;
      status = await this.exec(c.argv, io, print);
      if (this.exiting) return { status, exit: true };
    }
    return { status, exit: false };
  }

  private async exec(argv: string[], io: ShellIO, print: (text: string) => Promise<void>): Promise<number> {
    const [name0, ...args] = argv;
    const name = name0.replace(/^\/(?:usr\/)?s?bin\//, '');
    try {
      switch (name) {
        case 'true':
        case 'sync':
          return 0;
        case 'false':
          return 1;
        case 'exit':
        case 'logout':
          this.exiting = true;
          return Number.parseInt(args[0] ?? '0', 10) || 0;
        case 'echo':
          return await this.echo(args, print);
        case 'pwd':
          await print(`${this.cwd}\n`);
          return 0;
        case 'cd':
          return this.cd(args);
        case 'ls':
          return await ls(this, args, print);
        case 'cat':
          return await cat(this, args, io);
        case 'mkdir':
          return await mkdir(this, args, print);
        case 'rm':
          return await rm(this, args, print);
        case 'mv':
          return mv(this, args);
        case 'ln':
          return ln(this, args);
        case 'readlink':
          return await readlink(this, args, print);
        case 'tar':
          return await tar(this, args, print);
        case 'sha256sum':
          return await sha256sum(this, args, print);
        case 'rb':
          return await rb(this, args, io, print);
        case 'uname':
          return await this.uname(args, print);
        case 'hostname':
          await print(`${this.hostname}\n`);
          return 0;
        case 'sleep': {
          const s = Number(args[0]);
          if (!Number.isFinite(s) || s < 0) throw new Fail(`sleep: invalid number '${args[0] ?? ''}'`);
          await new Promise((r) => setTimeout(r, Math.min(s, 3600) * 1000).unref()); // never keeps a closing process alive
          return 0;
        }
        case 'help':
          await print(`Built-in commands:\n------------------\n\t${COMMANDS.join(' ')}\n`);
          return 0;
        case 'S80httpd':
        case '/etc/init.d/S80httpd':
          return await httpd(this, name0, args, print);
        default:
          await print(`sh: ${name0}: not found\n`);
          return 127;
      }
    } catch (e) {
      if (e instanceof Fail) {
        await print(`${e.message}\n`);
        return e.status;
      }
      await print(`${name}: ${why(e)}\n`);
      return 1;
    }
  }

  private async echo(args: string[], print: (t: string) => Promise<void>): Promise<number> {
    let newline = true;
    if (args[0] === '-n') {
      newline = false;
      args = args.slice(1);
    }
    await print(args.join(' ') + (newline ? '\n' : ''));
    return 0;
  }

  private cd(args: string[]): number {
    const target = args[0] ?? this.home;
    let logical: string;
    try {
      logical = normalizeIn(target, this.cwd);
      const st = statSync(this.resolve(logical, true).host);
      if (!st.isDirectory()) throw errno('ENOTDIR', 'Not a directory');
    } catch (e) {
      throw new Fail(`sh: cd: can't cd to ${target}: ${why(e)}`, 2);
    }
    this.cwd = logical;
    return 0;
  }

  private async uname(args: string[], print: (t: string) => Promise<void>): Promise<number> {
    const { set } = flags(args, 'asnrvmo', 'uname');
    const fields: [string, string][] = [
      ['s', 'Linux'],
      ['n', this.hostname],
      ['r', '4.9.118'],
      ['v', '#1 SMP PREEMPT Thu Jan 1 00:00:00 UTC 2026'],
      ['m', 'armv7l'],
      ['o', 'GNU/Linux'],
    ];
    const shown = fields.filter(([k]) => set.has('a') || set.has(k));
    await print(`${(shown.length ? shown : fields.slice(0, 1)).map(([, v]) => v).join(' ')}\n`);
    return 0;
  }
}
