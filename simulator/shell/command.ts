// What a command sees of the shell (its sandbox, its folder, its options and
// its terminal), and how a command fails: the common ground of the shell and
// its commands, so that both import it one way.
import type { ByteLink } from '../../serial/link.ts';
import type { Resolved } from './sandbox.ts';

export interface ShellIO {
  /** The raw console link; rb hands it to YMODEM. */
  link: ByteLink;
  /** Terminal output. */
  write(data: string | Buffer): Promise<void>;
}

export interface SandboxShellOptions {
  /** The sandbox folder: the terminal's /. */
  root: string;
  hostname?: string;
  /** Home folder (terminal path), shown as ~ in the prompt. */
  home?: string;
  /** `/etc/init.d/S80httpd restart`: serve this host folder (/www resolved) from now on. */
  onRestartHttp?: (siteDir: string) => void | Promise<void>;
  /** Largest file rb accepts (default 64 MiB). */
  maxReceiveBytes?: number;
  /** Passed to ymodemReceive. */
  ymodem?: { timeoutMs?: number; retries?: number };
}

/** The shell as its commands see it (SandboxShell). */
export interface ShellContext {
  readonly root: string;
  readonly hostname: string;
  readonly home: string;
  /** Current folder (terminal path, logical as ash keeps it). */
  cwd: string;
  readonly opts: SandboxShellOptions;
  /** Resolve a terminal path against the cwd. */
  resolve(path: string, follow?: boolean): Resolved;
}

/** A command failing with a message and an exit status. */
export class Fail extends Error {
  constructor(
    message: string,
    readonly status = 1,
  ) {
    super(message);
  }
}

/** Split leading single-letter flags (-rf, -s -f) from operands; `--` ends them. */
export function flags(args: string[], allowed: string, cmd: string): { set: Set<string>; rest: string[] } {
  const set = new Set<string>();
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      i++;
      break;
    }
    if (!a.startsWith('-') || a === '-') break;
    for (const f of a.slice(1)) {
      if (!allowed.includes(f)) throw new Fail(`${cmd}: invalid option -- '${f}'`, cmd === 'sh' ? 2 : 1);
      set.add(f);
    }
  }
  return { set, rest: args.slice(i) };
}
