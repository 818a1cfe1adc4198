// The shell's commands a flash uses: rb (YMODEM receive), sha256sum, tar
// (unpack a release) and /etc/init.d/S80httpd (serve /www from now on).
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { posix } from 'node:path';
import { readTar } from '../../serial/tar.ts';
import { SandboxError, errno, lstatOrNull, resolveIn, why, type Resolved } from './sandbox.ts';
import { Fail, flags, type ShellContext, type ShellIO } from './command.ts';
import { mkdirp, writeNew } from './files.ts';

export async function tar(sh: ShellContext, args: string[], print: (t: string) => Promise<void>): Promise<number> {
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
    data = readFileSync(sh.resolve(file, true).host);
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
    dest = sh.resolve(dir ?? '.', true);
    if (!statSync(dest.host).isDirectory()) throw errno('ENOTDIR', 'not a directory');
  } catch (e) {
    throw new Fail(`tar: can't change directory to '${dir ?? '.'}': ${why(e)}`);
  }
  for (const it of items) {
    const term = posix.join(dest.term, it.name);
    try {
      if (it.type === 'dir') mkdirp(sh, term);
      else {
        const parent = posix.dirname(term);
        if (parent !== dest.term) mkdirp(sh, parent);
        writeNew(sh.resolve(term, false), it.data);
      }
    } catch (e) {
      throw new Fail(`tar: can't create '${it.name}': ${why(e)}`);
    }
    if (verbose) await print(`${it.name}\n`);
  }
  return 0;
}

export async function sha256sum(sh: ShellContext, args: string[], print: (t: string) => Promise<void>): Promise<number> {
  if (!args.length) throw new Fail('sha256sum: reading standard input is not supported on this console');
  let status = 0;
  for (const f of args) {
    try {
      const data = readFileSync(sh.resolve(f, true).host);
      await print(`${createHash('sha256').update(data).digest('hex')}  ${f}\n`);
    } catch (e) {
      await print(`sha256sum: can't open '${f}': ${why(e)}\n`);
      status = 1;
    }
  }
  return status;
}

export async function rb(sh: ShellContext, args: string[], io: ShellIO, print: (t: string) => Promise<void>): Promise<number> {
  const { set } = flags(args, 'yEbeqvaB', 'rb');
  const { ymodemReceive } = await import('../../serial/ymodem-receive.ts');
  // Like lrzsz: drop typeahead (the rest of the command line's CR LF) first.
  await io.link.settle(30, 300);
  let files: { name: string; data: Buffer }[];
  try {
    files = await ymodemReceive(io.link, { maxBytes: sh.opts.maxReceiveBytes ?? 64 * 1024 * 1024, ...sh.opts.ymodem });
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
      let r = sh.resolve(name, false);
      if (lstatOrNull(r.host)) {
        if (set.has('E')) {
          let n = 0;
          while (lstatOrNull(sh.resolve(`${name}.${n}`, false).host)) if (++n > 999) throw new Fail(`rb: ${name}: too many copies`);
          r = sh.resolve(`${name}.${n}`, false);
        } else if (!set.has('y')) throw new Fail(`rb: ${name}: file exists (use -y to overwrite)`);
      }
      writeNew(r, f.data);
    } catch (e) {
      await print(e instanceof Fail ? `${e.message}\n` : `rb: ${name}: ${why(e)}\n`);
      status = 1;
    }
  }
  return status;
}

export async function httpd(sh: ShellContext, name: string, args: string[], print: (t: string) => Promise<void>): Promise<number> {
  const action = args[0];
  if (action !== 'restart' && action !== 'start' && action !== 'reload') throw new Fail(`Usage: ${name} {start|restart|reload}`);
  const label = action === 'start' ? 'Starting httpd' : 'Restarting httpd';
  try {
    const site = resolveIn(sh.root, '/www', '/', true).host;
    await sh.opts.onRestartHttp?.(site);
  } catch (e) {
    throw new Fail(`${label}: FAIL (${e instanceof SandboxError ? `/www: ${why(e)}` : (e as Error).message})`);
  }
  await print(`${label}: OK\n`);
  return 0;
}
