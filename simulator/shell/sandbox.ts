// The simulated terminal's file system: a sandbox folder that is the
// terminal's /. Terminal paths (/tmp/x, /www) map under the sandbox root; every
// path is resolved here, component by component, following symlinks by hand,
// and anything that would leave the root (through `..` or a symlink pointing
// outside) is refused, never followed. Also what an fs error says on a console.
import { cpSync, lstatSync, mkdirSync, readlinkSync, realpathSync, symlinkSync, writeFileSync, type Stats } from 'node:fs';
import { join } from 'node:path';

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

export function lstatOrNull(p: string): Stats | null {
  try {
    return lstatSync(p);
  } catch {
    return null;
  }
}

export function errno(code: string, message: string): NodeJS.ErrnoException {
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
export function why(err: unknown): string {
  if (err instanceof SandboxError) return 'path leaves the sandbox (refused)';
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code && STRERROR[code]) return STRERROR[code];
  return (err as Error)?.message ?? String(err);
}
