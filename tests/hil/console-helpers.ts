// Helpers for the serial console's tests (console.test.ts): a client that signs
// in on the simulated terminal's serial console and runs commands, and small fixtures.
import { readFileSync, readdirSync } from 'node:fs';
import type { ByteLink } from '../../serial/link.ts';

export const T = 5000;

/** The prompt at the end of what arrived: "<cwd> # ". */
export const PROMPT = /(?:^|\n)([^\r\n]*)# $/;

export class ConsoleClient {
  constructor(readonly link: ByteLink) {}

  /** Wake the console and sign in; returns everything up to the first shell prompt. */
  async login(user = 'root', password = 'terminal'): Promise<string> {
    await this.link.write('\r');
    let text = await this.link.expect(/login: $/, T);
    await this.link.write(`${user}\r`);
    text += await this.link.expect(/Password: $/, T);
    await this.link.write(`${password}\r`);
    text += await this.link.expect(/# $/, T);
    return text;
  }

  /** The prompt text of the last command (set by run). */
  prompt = '';

  /** Run one command line; returns its output (CR LF kept), without the echoed line and the prompt. */
  async run(line: string, timeoutMs = T): Promise<string> {
    await this.link.write(`${line}\r`);
    const echoed = await this.link.expect(/\r\n/, timeoutMs);
    if (echoed !== `${line}\r\n`) throw new Error(`echo was ${JSON.stringify(echoed)}, not ${JSON.stringify(line)}`);
    const text = await this.link.expect(/# $/, timeoutMs);
    const m = PROMPT.exec(text)!;
    this.prompt = `${m[1]}# `;
    return text.slice(0, text.length - this.prompt.length);
  }

  /** Run a command and tell whether it succeeded, the way the harness does. */
  async ok(line: string): Promise<{ ok: boolean; out: string }> {
    const out = await this.run(`${line} && echo 'R'_OK || echo 'R'_FAIL`);
    const ok = /R_OK\r\n$/.test(out);
    if (!ok && !/R_FAIL\r\n$/.test(out)) throw new Error(`no status marker in ${JSON.stringify(out)}`);
    return { ok, out: out.replace(/R_(OK|FAIL)\r\n$/, '') };
  }
}

/** Every file under a folder with its bytes, for "unchanged" checks. */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const p = `${e.parentPath}/${e.name}`;
    out[p.slice(dir.length)] = e.isFile() ? readFileSync(p).toString('base64') : e.isDirectory() ? '<dir>' : '<other>';
  }
  return out;
}

/** Processes whose command line mentions `needle` (for socat, found by its pty path). */
export function processesWith(needle: string): number[] {
  const pids: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (readFileSync(`/proc/${d}/cmdline`, 'utf8').includes(needle)) pids.push(Number(d));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function waitFor(what: string, check: () => boolean, ms = T): Promise<void> {
  const stop = Date.now() + ms;
  while (!check()) {
    if (Date.now() > stop) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}
