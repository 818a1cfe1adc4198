// After the swap: wait for the web server, then fetch every file of the
// manifest exactly as served (gzip bytes, not decoded) and compare hashes.
import { request } from 'node:http';
import { request as requestTls } from 'node:https';
import { createHash } from 'node:crypto';
import type { FlashImage } from './image.ts';

interface Fetched {
  status: number;
  body: Buffer;
  headers: Record<string, string | string[] | undefined>;
}

export function fetchRaw(url: string, timeoutMs = 15_000): Promise<Fetched> {
  const u = new URL(url);
  const get = u.protocol === 'https:' ? requestTls : request;
  return new Promise((resolve, reject) => {
    const req = get(u, { headers: { 'Accept-Encoding': 'gzip' }, timeout: timeoutMs, rejectUnauthorized: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), headers: res.headers }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url} within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}

/** Poll until the console's index.html is served (200), or throw after timeoutMs. */
export async function waitForHttp(base: string, timeoutMs: number): Promise<number> {
  const start = Date.now();
  let last = '';
  while (Date.now() - start < timeoutMs) {
    try {
      const r = await fetchRaw(new URL('/', base).href, 5000);
      if (r.status === 200) return Date.now() - start;
      last = `HTTP ${r.status}`;
    } catch (e) {
      last = (e as Error).message;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the web server at ${base} did not serve the console within ${timeoutMs / 1000} s (last: ${last})`);
}

export interface FileCheck {
  path: string;
  ok: boolean;
  problem?: string;
}

export async function verifyServed(base: string, image: FlashImage): Promise<FileCheck[]> {
  const checks: FileCheck[] = [];
  for (const f of image.manifest.files) {
    const url = new URL(f.path === 'index.html' ? '/' : `/${f.path}`, base).href;
    try {
      const r = await fetchRaw(url);
      const sha = createHash('sha256').update(r.body).digest('hex');
      if (r.status !== 200) checks.push({ path: f.path, ok: false, problem: `HTTP ${r.status}` });
      else if (r.headers['content-encoding'] !== 'gzip') checks.push({ path: f.path, ok: false, problem: 'not served with Content-Encoding: gzip' });
      else if (sha !== f.sha256) checks.push({ path: f.path, ok: false, problem: `SHA-256 ${sha.slice(0, 16)}… differs from the manifest's ${f.sha256.slice(0, 16)}…` });
      else checks.push({ path: f.path, ok: true });
    } catch (e) {
      checks.push({ path: f.path, ok: false, problem: (e as Error).message });
    }
  }
  return checks;
}
