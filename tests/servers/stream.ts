// An HTTP stream read as it comes (a live-events stream through a web
// server): its headers, and a wait for text to arrive while it stays open.
import { request } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';

/** How long a wait for streamed text may hang before the test fails naming what never came (a hang guard, not a timing). */
const HANG_MS = 20_000;

export async function openStream(url: string, headers: Record<string, string>) {
  let text = '';
  let wake = () => undefined as void;
  let ended = false;
  const req = request(url, { headers: { Accept: 'text/event-stream', ...headers } });
  const res = await new Promise<import('node:http').IncomingMessage>((resolve, reject) => {
    const guard = setTimeout(() => {
      reject(new Error(`${url}: no response headers (a server holding the whole answer back?)`));
      req.destroy();
    }, HANG_MS);
    req.on('response', (r) => {
      clearTimeout(guard);
      resolve(r);
    });
    req.on('error', reject);
    req.end();
  });
  res.setEncoding('utf8');
  res.on('data', (c: string) => {
    text += c;
    wake();
  });
  res.on('end', () => {
    ended = true;
    wake();
  });
  res.on('error', () => undefined);
  return {
    headers: res.headers as IncomingHttpHeaders,
    /** Resolves once `pattern` is in what came; fails if the stream ends first, or nothing matching comes for HANG_MS. */
    async until(pattern: RegExp, what: string): Promise<void> {
      const guard = setTimeout(() => {
        ended = true;
        wake();
      }, HANG_MS);
      try {
        while (!pattern.test(text)) {
          if (ended) throw new Error(`${what}: not received (the stream ${res.complete ? 'ended' : 'held it back'}); received so far: ${JSON.stringify(text.slice(-300))}`);
          await new Promise<void>((r) => (wake = r));
        }
      } finally {
        clearTimeout(guard);
      }
    },
    close: () => req.destroy(),
  };
}
