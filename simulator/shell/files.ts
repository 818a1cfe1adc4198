// The shell's file commands over the sandbox: ls, cat, mkdir, rm, mv, ln,
// readlink, and the helpers they share with the install commands.
import {
  linkSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { join, posix } from 'node:path';
import { SandboxError, errno, lstatOrNull, normalizeIn, why, type Resolved } from './sandbox.ts';
import { Fail, flags, type ShellContext, type ShellIO } from './command.ts';

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

/** A symlink's target as a terminal path when it stays inside, else as stored. */
function linkTarget(sh: ShellContext, host: string, dirTerm: string): string {
  const raw = readlinkSync(host);
  if (raw.startsWith('/')) return raw === sh.root || raw.startsWith(`${sh.root}/`) ? raw.slice(sh.root.length) || '/' : raw;
  try {
    return normalizeIn(raw, dirTerm);
  } catch {
    return raw;
  }
}

function longLine(sh: ShellContext, host: string, shown: string, dirTerm: string): string {
  const st = lstatSync(host);
  const d = st.mtime;
  const date = `${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2)} ${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
  const link = st.isSymbolicLink() ? ` -> ${linkTarget(sh, host, dirTerm)}` : '';
  return `${modeString(st)} ${String(st.nlink).padStart(4)} root     root     ${String(st.size).padStart(9)} ${date} ${shown}${link}`;
}

export async function ls(sh: ShellContext, args: string[], print: (t: string) => Promise<void>): Promise<number> {
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
      r = sh.resolve(p, !long || set.has('L') || p.endsWith('/'));
      st = lstatSync(r.host);
    } catch (e) {
      await print(`ls: ${p}: ${why(e)}\n`);
      status = 1;
      continue;
    }
    const dirTerm = posix.dirname(r.term);
    if (!st.isDirectory() || set.has('d')) {
      files.push(long ? longLine(sh, r.host, p, dirTerm) : p);
      continue;
    }
    const names = readdirSync(r.host)
      .filter((n) => all || !n.startsWith('.'))
      .sort();
    const lines = names.map((n) => (long ? longLine(sh, join(r.host, n), n, r.term) : n));
    blocks.push((paths.length > 1 ? `${p}:\n` : '') + lines.map((l) => `${l}\n`).join(''));
  }
  const out = [files.map((l) => `${l}\n`).join(''), ...blocks].filter(Boolean).join('\n');
  if (out) await print(out);
  return status;
}

export async function cat(sh: ShellContext, args: string[], io: ShellIO): Promise<number> {
  if (!args.length) throw new Fail('cat: reading standard input is not supported on this console');
  let status = 0;
  for (const f of args) {
    let data: Buffer;
    try {
      const r = sh.resolve(f, true);
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
export function mkdirp(sh: ShellContext, path: string): void {
  const abs = path.startsWith('/') ? path : `${sh.cwd}/${path}`;
  const parts = abs.split('/').filter(Boolean);
  for (let i = 1; i <= parts.length; i++) {
    const r = sh.resolve(`/${parts.slice(0, i).join('/')}`, true);
    const st = lstatOrNull(r.host);
    if (!st) mkdirSync(r.host);
    else if (!st.isDirectory()) throw errno(i === parts.length ? 'EEXIST' : 'ENOTDIR', 'not a directory');
  }
}

export async function mkdir(sh: ShellContext, args: string[], print: (t: string) => Promise<void>): Promise<number> {
  const { set, rest } = flags(args, 'p', 'mkdir');
  if (!rest.length) throw new Fail('mkdir: missing operand');
  let status = 0;
  for (const d of rest) {
    try {
      if (set.has('p')) mkdirp(sh, d);
      else mkdirSync(sh.resolve(d, false).host);
    } catch (e) {
      await print(`mkdir: can't create directory '${d}': ${why(e)}\n`);
      status = 1;
    }
  }
  return status;
}

export async function rm(sh: ShellContext, args: string[], print: (t: string) => Promise<void>): Promise<number> {
  const { set, rest } = flags(args, 'rRfi', 'rm');
  const force = set.has('f');
  const recursive = set.has('r') || set.has('R');
  if (!rest.length && !force) throw new Fail('rm: missing operand');
  let status = 0;
  for (const p of rest) {
    try {
      const base = posix.basename(p);
      if (base === '.' || base === '..') throw new Fail(`rm: can't remove '.' or '..'`);
      const r = sh.resolve(p, false);
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

export function mv(sh: ShellContext, args: string[]): number {
  const { set, rest } = flags(args, 'Tfn', 'mv');
  if (rest.length < 2) throw new Fail('mv: missing operand');
  if (set.has('T') && rest.length !== 2) throw new Fail(`mv: extra operand '${rest[2]}'`);
  const dst = rest.at(-1)!;
  const srcs = rest.slice(0, -1);
  let intoDir = false;
  if (!set.has('T')) {
    try {
      intoDir = statSync(sh.resolve(dst, true).host).isDirectory();
    } catch (e) {
      if (e instanceof SandboxError) throw new Fail(`mv: can't rename '${srcs[0]}': ${why(e)}`);
    }
    if (srcs.length > 1 && !intoDir) throw new Fail(`mv: '${dst}' is not a directory`);
  }
  for (const src of srcs) {
    try {
      const s = sh.resolve(src, false);
      if (!lstatOrNull(s.host)) throw errno('ENOENT', 'missing');
      if (s.term === '/') throw errno('EBUSY', 'busy');
      const d = sh.resolve(intoDir ? posix.join(dst, posix.basename(s.term)) : dst, false);
      if (set.has('n') && lstatOrNull(d.host)) continue;
      renameSync(s.host, d.host);
    } catch (e) {
      throw new Fail(`mv: can't rename '${src}': ${why(e)}`);
    }
  }
  return 0;
}

export function ln(sh: ShellContext, args: string[]): number {
  const { set, rest } = flags(args, 'sfnv', 'ln');
  if (!rest.length) throw new Fail('ln: missing operand');
  if (rest.length > 2) throw new Fail(`ln: extra operand '${rest[2]}'`);
  const target = rest[0];
  let linkPath = rest[1] ?? posix.basename(target);
  let l: Resolved;
  let st: Stats | null;
  try {
    l = sh.resolve(linkPath, false);
    st = lstatOrNull(l.host);
    // An existing folder (or, without -n, a symlink to one) gets the link inside it.
    const isDir = st?.isDirectory() || (st?.isSymbolicLink() && !set.has('n') && lstatOrNull(sh.resolve(linkPath, true).host)?.isDirectory() === true);
    if (isDir) {
      linkPath = posix.join(linkPath, posix.basename(target));
      l = sh.resolve(linkPath, false);
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
      stored = sh.resolve(target, true).host;
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

export async function readlink(sh: ShellContext, args: string[], print: (t: string) => Promise<void>): Promise<number> {
  const { set, rest } = flags(args, 'fn', 'readlink');
  if (rest.length !== 1) throw new Fail('readlink: need one file');
  try {
    if (set.has('f')) {
      await print(`${sh.resolve(rest[0], true).term}\n`);
      return 0;
    }
    const r = sh.resolve(rest[0], false);
    if (!lstatSync(r.host).isSymbolicLink()) return 1;
    await print(`${linkTarget(sh, r.host, posix.dirname(r.term))}\n`);
    return 0;
  } catch {
    return 1;
  }
}

/** Create a file, replacing (never following) whatever non-folder is there. */
export function writeNew(r: Resolved, data: Buffer): void {
  const st = lstatOrNull(r.host);
  if (st?.isDirectory()) throw errno('EISDIR', 'is a directory');
  if (st) unlinkSync(r.host);
  writeFileSync(r.host, data, { flag: 'wx', mode: 0o644 });
}
