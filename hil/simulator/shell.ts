// The simulated terminal's shell: a tiny busybox-like shell over a sandbox
// folder. Terminal paths (/tmp/x, /www) map under the sandbox root; every
// path is resolved here, component by component, following symlinks by hand,
// and anything that would leave the root (through `..` or a symlink pointing
// outside) is refused, never followed. Nothing runs on the host: every
// command is a function below.
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { join, posix } from 'node:path';
import type { ByteLink } from '../link.ts';
import { readTar } from '../tar.ts';

/** A path that would resolve outside the sandbox. */
export class SandboxError extends Error {
  readonly code = 'ESANDBOX';
  constructor(path: string) {
    super(`${path}: path leaves the sandbox`);
  }
}

/** Where a terminal path lands: its host path and its physical terminal path. */
export interface Resolved {
  host: string;
  term: string;
}

const MAX_SYMLINKS = 40;

function lstatOrNull(p: string): Stats | null {
  try {
    return lstatSync(p);
  } catch {
    return null;
  }
}

function errno(code: string, message: string): NodeJS.ErrnoException {
  const e = new Error(message) as NodeJS.ErrnoException;
  e.code = code;
  return e;
}

/**
 * Resolve a terminal path inside `root` (a real path). Relative paths start at
 * `cwd`. With `follow`, a symlink in the last component is followed too;
 * without it, the last component is left as it is (rm, mv, ln, lstat).
 * Throws SandboxError when `..` or a symlink would leave the root.
 */
export function resolveIn(root: string, path: string, cwd = '/', follow = true): Resolved {
  if (path.includes('\0')) throw errno('EINVAL', 'Invalid argument');
  const abs = path.startsWith('/') ? path : `${cwd}/${path}`;
  let todo = abs.split('/').filter((c) => c && c !== '.');
  let done: string[] = [];
  let hops = 0;
  while (todo.length) {
    const c = todo.shift()!;
    if (c === '..') {
      if (!done.length) throw new SandboxError(path);
      done.pop();
      continue;
    }
    done.push(c);
    if (!todo.length && !follow) break;
    const host = join(root, ...done);
    const st = lstatOrNull(host);
    if (!st?.isSymbolicLink()) continue;
    if (++hops > MAX_SYMLINKS) throw errno('ELOOP', 'Too many symbolic links');
    const target = readlinkSync(host);
    done.pop();
    if (target.startsWith('/')) {
      // Only a host path inside the root is acceptable; /etc/passwd is not /etc/passwd of the sandbox.
      if (target !== root && !target.startsWith(`${root}/`)) throw new SandboxError(path);
      done = [];
      todo = [...target.slice(root.length).split('/').filter((p) => p && p !== '.'), ...todo];
    } else {
      todo = [...target.split('/').filter((p) => p && p !== '.'), ...todo];
    }
  }
  return { host: done.length ? join(root, ...done) : root, term: `/${done.join('/')}` };
}

/** Lexical normalisation of a terminal path against cwd; `..` above / is refused. */
export function normalizeIn(path: string, cwd = '/'): string {
  const abs = path.startsWith('/') ? path : `${cwd}/${path}`;
  const out: string[] = [];
  for (const c of abs.split('/')) {
    if (!c || c === '.') continue;
    if (c === '..') {
      if (!out.length) throw new SandboxError(path);
      out.pop();
    } else out.push(c);
  }
  return `/${out.join('/')}`;
}

/** The host folder the web server should serve: /www resolved inside the sandbox. */
export function siteDirOf(root: string): string {
  const real = realpathSync(root);
  return resolveIn(real, '/www', '/', true).host;
}

const S80HTTPD = `#!/bin/sh
# Simulated terminal: the console's shell runs "$0 restart" as a built-in
# that points the web server at /www (resolved).
`;

/**
 * Lay out a sandbox: /tmp, /root, /etc/init.d/S80httpd, /www.d/ and /www -> /www.d/factory.
 * With `factorySite`, /www.d/factory gets a copy of that folder if it is not there yet.
 * What is already there is left alone.
 */
export function prepareSandbox(root: string, opts: { factorySite?: string } = {}): void {
  mkdirSync(root, { recursive: true });
  for (const d of ['tmp', 'root', 'etc/init.d', 'www.d']) mkdirSync(join(root, d), { recursive: true });
  const script = join(root, 'etc/init.d/S80httpd');
  if (!lstatOrNull(script)) writeFileSync(script, S80HTTPD, { mode: 0o755 });
  const factory = join(root, 'www.d/factory');
  if (!lstatOrNull(factory)) {
    if (opts.factorySite) cpSync(opts.factorySite, factory, { recursive: true, dereference: true });
    else mkdirSync(factory);
  }
  if (!lstatOrNull(join(root, 'www'))) symlinkSync('www.d/factory', join(root, 'www'));
}

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

export interface RunResult {
  /** Exit status of the last command that ran. */
  status: number;
  /** exit/logout: back to the login prompt. */
  exit: boolean;
}

type Token = { word: string } | { op: '&&' | '||' | ';' };
interface Command {
  argv: string[];
  /** How it joins the previous command. */
  op: '&&' | '||' | ';';
}

class SyntaxError_ extends Error {}

/** Words and &&, ||, ; with single and double quotes and backslash escapes. */
export function tokenize(line: string): Token[] {
  const out: Token[] = [];
  let cur = '';
  let inWord = false;
  const flush = () => {
    if (inWord) out.push({ word: cur });
    cur = '';
    inWord = false;
  };
  for (let i = 0; i < line.length; ) {
    const c = line[i];
    if (c === ' ' || c === '\t') {
      flush();
      i++;
    } else if (c === '#' && !inWord) {
      break;
    } else if ((c === '&' || c === '|') && line[i + 1] === c) {
      flush();
      out.push({ op: c === '&' ? '&&' : '||' });
      i += 2;
    } else if (c === ';') {
      flush();
      out.push({ op: ';' });
      i++;
    } else if (c === '|' || c === '&' || c === '<' || c === '>' || c === '`' || c === '(' || c === ')') {
      throw new SyntaxError_(`"${c}" (pipes, redirections, background jobs and subshells) is not supported on this console`);
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new SyntaxError_('unterminated quoted string');
      cur += line.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (c === '"') {
      let j = i + 1;
      for (;;) {
        if (j >= line.length) throw new SyntaxError_('unterminated quoted string');
        const d = line[j];
        if (d === '"') break;
        if (d === '\\' && j + 1 < line.length && '"\\$`'.includes(line[j + 1])) {
          cur += line[j + 1];
          j += 2;
        } else {
          cur += d;
          j++;
        }
      }
      inWord = true;
      i = j + 1;
    } else if (c === '\\') {
      if (i + 1 < line.length) cur += line[i + 1];
      inWord = true;
      i += 2;
    } else {
      cur += c;
      inWord = true;
      i++;
    }
  }
  flush();
  return out;
}

function parse(line: string): Command[] {
  const cmds: Command[] = [];
  let argv: string[] = [];
  let op: Command['op'] = ';';
  for (const t of tokenize(line)) {
    if ('word' in t) {
      argv.push(t.word);
      continue;
    }
    if (!argv.length) throw new SyntaxError_(`unexpected "${t.op}"`);
    cmds.push({ argv, op });
    argv = [];
    op = t.op;
  }
  if (argv.length) cmds.push({ argv, op });
  else if (op !== ';') throw new SyntaxError_('unexpected end of line');
  return cmds;
}

const STRERROR: Record<string, string> = {
  ENOENT: 'No such file or directory',
  EEXIST: 'File exists',
  ENOTDIR: 'Not a directory',
  EISDIR: 'Is a directory',
  ENOTEMPTY: 'Directory not empty',
  EACCES: 'Permission denied',
  EPERM: 'Operation not permitted',
  ELOOP: 'Too many symbolic links',
  EINVAL: 'Invalid argument',
  EXDEV: 'Invalid cross-device link',
  ENAMETOOLONG: 'File name too long',
  ENOSPC: 'No space left on device',
  EBUSY: 'Resource busy',
};

/** strerror-like text for an error from fs or the sandbox. */
function why(err: unknown): string {
  if (err instanceof SandboxError) return 'path leaves the sandbox (refused)';
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code && STRERROR[code]) return STRERROR[code];
  return (err as Error)?.message ?? String(err);
}

/** A command failing with a message and an exit status. */
class Fail extends Error {
  constructor(
    message: string,
    readonly status = 1,
  ) {
    super(message);
  }
}

/** Split leading single-letter flags (-rf, -s -f) from operands; `--` ends them. */
function flags(args: string[], allowed: string, cmd: string): { set: Set<string>; rest: string[] } {
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

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function modeString(st: Stats): string {
  const type = st.isDirectory() ? 'd' : st.isSymbolicLink() ? 'l' : '-';
  let bits = '';
  for (let shift = 6; shift >= 0; shift -= 3) {
    const m = (st.mode >> shift) & 7;
    bits += (m & 4 ? 'r' : '-') + (m & 2 ? 'w' : '-') + (m & 1 ? 'x' : '-');
  }
  return type + bits;
}

const COMMANDS = [
  'cat', 'cd', 'echo', 'exit', 'false', 'help', 'hostname', 'ln', 'logout', 'ls', 'mkdir', 'mv', 'pwd',
  'rb', 'readlink', 'rm', 'sha256sum', 'sleep', 'sync', 'tar', 'true', 'uname', '/etc/init.d/S80httpd',
];

export class SandboxShell {
  readonly root: string;
  readonly hostname: string;
  readonly home: string;
  /** Current folder (terminal path, logical as ash keeps it). */
  cwd: string;
  private exiting = false;

  constructor(private readonly opts: SandboxShellOptions) {
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
          return await this.ls(args, print);
        case 'cat':
          return await this.cat(args, io);
        case 'mkdir':
          return await this.mkdir(args, print);
        case 'rm':
          return await this.rm(args, print);
        case 'mv':
          return this.mv(args);
        case 'ln':
          return this.ln(args);
        case 'readlink':
          return await this.readlink(args, print);
        case 'tar':
          return await this.tar(args, print);
        case 'sha256sum':
          return await this.sha256sum(args, print);
        case 'rb':
          return await this.rb(args, io, print);
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
          return await this.httpd(name0, args, print);
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

  /** A symlink's target as a terminal path when it stays inside, else as stored. */
  private linkTarget(host: string, dirTerm: string): string {
    const raw = readlinkSync(host);
    if (raw.startsWith('/')) return raw === this.root || raw.startsWith(`${this.root}/`) ? raw.slice(this.root.length) || '/' : raw;
    try {
      return normalizeIn(raw, dirTerm);
    } catch {
      return raw;
    }
  }

  private longLine(host: string, shown: string, dirTerm: string): string {
    const st = lstatSync(host);
    const d = st.mtime;
    const date = `${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2)} ${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
    const link = st.isSymbolicLink() ? ` -> ${this.linkTarget(host, dirTerm)}` : '';
    return `${modeString(st)} ${String(st.nlink).padStart(4)} root     root     ${String(st.size).padStart(9)} ${date} ${shown}${link}`;
  }

  private async ls(args: string[], print: (t: string) => Promise<void>): Promise<number> {
    const { set, rest } = flags(args, '1aAlLd', 'ls');
    const long = set.has('l');
    const all = set.has('a') || set.has('A');
    const paths = rest.length ? rest : ['.'];
    let status = 0;
    const blocks: string[] = [];
    const files: string[] = [];
    for (const p of paths) {
      let r: Resolved;
      let st: Stats;
      try {
        r = this.resolve(p, !long || set.has('L') || p.endsWith('/'));
        st = lstatSync(r.host);
      } catch (e) {
        await print(`ls: ${p}: ${why(e)}\n`);
        status = 1;
        continue;
      }
      const dirTerm = posix.dirname(r.term);
      if (!st.isDirectory() || set.has('d')) {
        files.push(long ? this.longLine(r.host, p, dirTerm) : p);
        continue;
      }
      const names = readdirSync(r.host)
        .filter((n) => all || !n.startsWith('.'))
        .sort();
      const lines = names.map((n) => (long ? this.longLine(join(r.host, n), n, r.term) : n));
      blocks.push((paths.length > 1 ? `${p}:\n` : '') + lines.map((l) => `${l}\n`).join(''));
    }
    const out = [files.map((l) => `${l}\n`).join(''), ...blocks].filter(Boolean).join('\n');
    if (out) await print(out);
    return status;
  }

  private async cat(args: string[], io: ShellIO): Promise<number> {
    if (!args.length) throw new Fail('cat: reading standard input is not supported on this console');
    let status = 0;
    for (const f of args) {
      let data: Buffer;
      try {
        const r = this.resolve(f, true);
        if (statSync(r.host).isDirectory()) {
          await io.write(`cat: read error: Is a directory\r\n`);
          status = 1;
          continue;
        }
        data = readFileSync(r.host);
      } catch (e) {
        await io.write(`cat: can't open '${f}': ${why(e)}\r\n`);
        status = 1;
        continue;
      }
      // A tty's output processing (onlcr): LF goes out as CR LF.
      const parts: Buffer[] = [];
      let start = 0;
      for (let i = 0; i < data.length; i++) {
        if (data[i] === 0x0a && (i === 0 || data[i - 1] !== 0x0d)) {
          parts.push(data.subarray(start, i), Buffer.from('\r'));
          start = i;
        }
      }
      parts.push(data.subarray(start));
      await io.write(Buffer.concat(parts));
    }
    return status;
  }

  /** mkdir -p: each prefix in turn, resolved on its own. */
  private mkdirp(path: string): void {
    const abs = path.startsWith('/') ? path : `${this.cwd}/${path}`;
    const parts = abs.split('/').filter(Boolean);
    for (let i = 1; i <= parts.length; i++) {
      const r = this.resolve(`/${parts.slice(0, i).join('/')}`, true);
      const st = lstatOrNull(r.host);
      if (!st) mkdirSync(r.host);
      else if (!st.isDirectory()) throw errno(i === parts.length ? 'EEXIST' : 'ENOTDIR', 'not a directory');
    }
  }

  private async mkdir(args: string[], print: (t: string) => Promise<void>): Promise<number> {
    const { set, rest } = flags(args, 'p', 'mkdir');
    if (!rest.length) throw new Fail('mkdir: missing operand');
    let status = 0;
    for (const d of rest) {
      try {
        if (set.has('p')) this.mkdirp(d);
        else mkdirSync(this.resolve(d, false).host);
      } catch (e) {
        await print(`mkdir: can't create directory '${d}': ${why(e)}\n`);
        status = 1;
      }
    }
    return status;
  }

  private async rm(args: string[], print: (t: string) => Promise<void>): Promise<number> {
    const { set, rest } = flags(args, 'rRfi', 'rm');
    const force = set.has('f');
    const recursive = set.has('r') || set.has('R');
    if (!rest.length && !force) throw new Fail('rm: missing operand');
    let status = 0;
    for (const p of rest) {
      try {
        const base = posix.basename(p);
        if (base === '.' || base === '..') throw new Fail(`rm: can't remove '.' or '..'`);
        const r = this.resolve(p, false);
        if (r.term === '/') throw new Fail(`rm: refusing to remove '/'`);
        const st = lstatOrNull(r.host);
        if (!st) {
          if (!force) throw errno('ENOENT', 'missing');
          continue;
        }
        if (st.isDirectory()) {
          if (!recursive) throw errno('EISDIR', 'is a directory');
          rmSync(r.host, { recursive: true, force: true });
        } else unlinkSync(r.host);
      } catch (e) {
        await print(e instanceof Fail ? `${e.message}\n` : `rm: can't remove '${p}': ${why(e)}\n`);
        status = 1;
      }
    }
    return status;
  }

  private mv(args: string[]): number {
    const { set, rest } = flags(args, 'Tfn', 'mv');
    if (rest.length < 2) throw new Fail('mv: missing operand');
    if (set.has('T') && rest.length !== 2) throw new Fail(`mv: extra operand '${rest[2]}'`);
    const dst = rest.at(-1)!;
    const srcs = rest.slice(0, -1);
    let intoDir = false;
    if (!set.has('T')) {
      try {
        intoDir = statSync(this.resolve(dst, true).host).isDirectory();
      } catch (e) {
        if (e instanceof SandboxError) throw new Fail(`mv: can't rename '${srcs[0]}': ${why(e)}`);
      }
      if (srcs.length > 1 && !intoDir) throw new Fail(`mv: '${dst}' is not a directory`);
    }
    for (const src of srcs) {
      try {
        const s = this.resolve(src, false);
        if (!lstatOrNull(s.host)) throw errno('ENOENT', 'missing');
        if (s.term === '/') throw errno('EBUSY', 'busy');
        const d = this.resolve(intoDir ? posix.join(dst, posix.basename(s.term)) : dst, false);
        if (set.has('n') && lstatOrNull(d.host)) continue;
        renameSync(s.host, d.host);
      } catch (e) {
        throw new Fail(`mv: can't rename '${src}': ${why(e)}`);
      }
    }
    return 0;
  }

  private ln(args: string[]): number {
    const { set, rest } = flags(args, 'sfnv', 'ln');
    if (!rest.length) throw new Fail('ln: missing operand');
    if (rest.length > 2) throw new Fail(`ln: extra operand '${rest[2]}'`);
    const target = rest[0];
    let linkPath = rest[1] ?? posix.basename(target);
    let l: Resolved;
    let st: Stats | null;
    try {
      l = this.resolve(linkPath, false);
      st = lstatOrNull(l.host);
      // An existing folder (or, without -n, a symlink to one) gets the link inside it.
      const isDir = st?.isDirectory() || (st?.isSymbolicLink() && !set.has('n') && lstatOrNull(this.resolve(linkPath, true).host)?.isDirectory() === true);
      if (isDir) {
        linkPath = posix.join(linkPath, posix.basename(target));
        l = this.resolve(linkPath, false);
        st = lstatOrNull(l.host);
      }
    } catch (e) {
      throw new Fail(`ln: ${linkPath}: ${why(e)}`);
    }
    if (st) {
      if (!set.has('f')) throw new Fail(`ln: ${linkPath}: File exists`);
      if (st.isDirectory()) throw new Fail(`ln: ${linkPath}: Is a directory`);
    }
    const dirTerm = posix.dirname(l.term);
    let stored: string;
    try {
      if (set.has('s')) {
        // Targets are terminal paths; stored relative to the link's folder so
        // the link resolves inside the sandbox on the host too (the web server follows it).
        if (target.startsWith('/')) stored = posix.relative(dirTerm, normalizeIn(target)) || '.';
        else {
          normalizeIn(target, dirTerm);
          stored = target;
        }
      } else {
        stored = this.resolve(target, true).host;
        if (!lstatOrNull(stored)) throw errno('ENOENT', 'missing');
      }
    } catch (e) {
      throw new Fail(`ln: ${target}: ${why(e)}`);
    }
    try {
      if (st) unlinkSync(l.host);
      if (set.has('s')) symlinkSync(stored, l.host);
      else linkSync(stored, l.host);
    } catch (e) {
      throw new Fail(`ln: ${linkPath}: ${why(e)}`);
    }
    return 0;
  }

  private async readlink(args: string[], print: (t: string) => Promise<void>): Promise<number> {
    const { set, rest } = flags(args, 'fn', 'readlink');
    if (rest.length !== 1) throw new Fail('readlink: need one file');
    try {
      if (set.has('f')) {
        await print(`${this.resolve(rest[0], true).term}\n`);
        return 0;
      }
      const r = this.resolve(rest[0], false);
      if (!lstatSync(r.host).isSymbolicLink()) return 1;
      await print(`${this.linkTarget(r.host, posix.dirname(r.term))}\n`);
      return 0;
    } catch {
      return 1;
    }
  }

  /** Create a file, replacing (never following) whatever non-folder is there. */
  private writeNew(r: Resolved, data: Buffer): void {
    const st = lstatOrNull(r.host);
    if (st?.isDirectory()) throw errno('EISDIR', 'is a directory');
    if (st) unlinkSync(r.host);
    writeFileSync(r.host, data, { flag: 'wx', mode: 0o644 });
  }

  private async tar(args: string[], print: (t: string) => Promise<void>): Promise<number> {
    let mode: 'x' | 't' | undefined;
    let file: string | undefined;
    let dir: string | undefined;
    let verbose = false;
    const members: string[] = [];
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      const cluster = a.startsWith('-') ? a.slice(1) : i === 0 ? a : null;
      if (cluster === null || a === '-') {
        members.push(a);
        continue;
      }
      for (let j = 0; j < cluster.length; j++) {
        const f = cluster[j];
        if (f === 'x' || f === 't') mode = f;
        else if (f === 'v') verbose = true;
        else if (f === 'o' || f === 'p') continue;
        else if (f === 'f' || f === 'C') {
          const rest = cluster.slice(j + 1);
          const value = rest || args[++i];
          if (value === undefined) throw new Fail(`tar: option requires an argument -- '${f}'`);
          if (f === 'f') file = value;
          else dir = value;
          break;
        } else if (f === 'c') throw new Fail('tar: creating archives is not supported on this console');
        else if (f === 'z' || f === 'j' || f === 'J') throw new Fail('tar: compressed archives are not supported on this console');
        else throw new Fail(`tar: invalid option -- '${f}'`);
      }
    }
    if (!mode) throw new Fail('tar: need one of -x or -t');
    if (!file || file === '-') throw new Fail('tar: need -f FILE (reading standard input is not supported on this console)');
    if (members.length) throw new Fail('tar: extracting chosen members is not supported on this console');
    let data: Buffer;
    try {
      data = readFileSync(this.resolve(file, true).host);
    } catch (e) {
      throw new Fail(`tar: can't open '${file}': ${why(e)}`);
    }
    let items: ReturnType<typeof readTar>;
    try {
      // The whole archive is parsed before anything is written.
      items = readTar(data);
    } catch (e) {
      const msg = (e as Error).message;
      throw new Fail(msg.startsWith('tar:') ? msg : `tar: ${msg}`);
    }
    if (mode === 't') {
      await print(items.map((it) => `${it.name}${it.type === 'dir' ? '/' : ''}\n`).join(''));
      return 0;
    }
    let dest: Resolved;
    try {
      dest = this.resolve(dir ?? '.', true);
      if (!statSync(dest.host).isDirectory()) throw errno('ENOTDIR', 'not a directory');
    } catch (e) {
      throw new Fail(`tar: can't change directory to '${dir ?? '.'}': ${why(e)}`);
    }
    for (const it of items) {
      const term = posix.join(dest.term, it.name);
      try {
        if (it.type === 'dir') this.mkdirp(term);
        else {
          const parent = posix.dirname(term);
          if (parent !== dest.term) this.mkdirp(parent);
          this.writeNew(this.resolve(term, false), it.data);
        }
      } catch (e) {
        throw new Fail(`tar: can't create '${it.name}': ${why(e)}`);
      }
      if (verbose) await print(`${it.name}\n`);
    }
    return 0;
  }

  private async sha256sum(args: string[], print: (t: string) => Promise<void>): Promise<number> {
    if (!args.length) throw new Fail('sha256sum: reading standard input is not supported on this console');
    let status = 0;
    for (const f of args) {
      try {
        const data = readFileSync(this.resolve(f, true).host);
        await print(`${createHash('sha256').update(data).digest('hex')}  ${f}\n`);
      } catch (e) {
        await print(`sha256sum: can't open '${f}': ${why(e)}\n`);
        status = 1;
      }
    }
    return status;
  }

  private async rb(args: string[], io: ShellIO, print: (t: string) => Promise<void>): Promise<number> {
    const { set } = flags(args, 'yEbeqvaB', 'rb');
    const { ymodemReceive } = await import('../ymodem.ts');
    // Like lrzsz: drop typeahead (the rest of the command line's CR LF) first.
    await io.link.settle(30, 300);
    let files: { name: string; data: Buffer }[];
    try {
      files = await ymodemReceive(io.link, { maxBytes: this.opts.maxReceiveBytes ?? 64 * 1024 * 1024, ...this.opts.ymodem });
    } catch (e) {
      if (io.link.closed) throw e;
      // Let a sender that is still talking give up before the console reads lines again.
      await io.link.settle(250, 3000);
      await print(`rb: ${(e as Error).message}\n`);
      return 1;
    }
    let status = 0;
    for (const f of files) {
      const name = posix.basename(f.name.replace(/\\/g, '/'));
      try {
        if (!name || name === '.' || name === '..') throw new Fail(`rb: refusing file name '${f.name}'`);
        let r = this.resolve(name, false);
        if (lstatOrNull(r.host)) {
          if (set.has('E')) {
            let n = 0;
            while (lstatOrNull(this.resolve(`${name}.${n}`, false).host)) if (++n > 999) throw new Fail(`rb: ${name}: too many copies`);
            r = this.resolve(`${name}.${n}`, false);
          } else if (!set.has('y')) throw new Fail(`rb: ${name}: file exists (use -y to overwrite)`);
        }
        this.writeNew(r, f.data);
      } catch (e) {
        await print(e instanceof Fail ? `${e.message}\n` : `rb: ${name}: ${why(e)}\n`);
        status = 1;
      }
    }
    return status;
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

  private async httpd(name: string, args: string[], print: (t: string) => Promise<void>): Promise<number> {
    const action = args[0];
    if (action !== 'restart' && action !== 'start' && action !== 'reload') throw new Fail(`Usage: ${name} {start|restart|reload}`);
    const label = action === 'start' ? 'Starting httpd' : 'Restarting httpd';
    try {
      const site = resolveIn(this.root, '/www', '/', true).host;
      await this.opts.onRestartHttp?.(site);
    } catch (e) {
      throw new Fail(`${label}: FAIL (${e instanceof SandboxError ? `/www: ${why(e)}` : (e as Error).message})`);
    }
    await print(`${label}: OK\n`);
    return 0;
  }
}
