// Shared by the uvu suites: a real loopback HTTP server that records what
// arrives, fetch pointed at it (the console uses same-origin relative URLs),
// timer capture, and the English catalogue activated.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { i18n } from '@lingui/core';
import { render } from 'preact';
import type { Test } from 'uvu';

export interface Received {
  method: string;
  url: URL;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface FakeDevice {
  base: string;
  received: Received[];
  /** What the next requests get: a body string (JSON unless `type` says otherwise), or a function of the request. */
  answer: (r: Received) => { status?: number; body: string; delayMs?: number; type?: string } | null;
  close(): Promise<void>;
}

const realFetch = globalThis.fetch;
const realSetTimeout = globalThis.setTimeout;

export async function fakeDevice(): Promise<FakeDevice> {
  const dev: FakeDevice = {
    base: '',
    received: [],
    answer: () => ({ body: '{"retvalue":0}' }),
    close: () => new Promise((r) => server.close(() => r())),
  };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const r: Received = { method: req.method!, url: new URL(req.url!, dev.base), headers: req.headers, body };
      dev.received.push(r);
      const a = dev.answer(r);
      if (!a) return; // never answer: a hung device
      realSetTimeout(() => {
        res.writeHead(a.status ?? 200, { 'Content-Type': a.type ?? 'application/json' });
        res.end(a.body);
      }, a.delayMs ?? 0);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  dev.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  globalThis.fetch = ((input: string | URL, init?: RequestInit) => realFetch(new URL(String(input), dev.base), init)) as typeof fetch;
  return dev;
}

export function restoreFetch(): void {
  globalThis.fetch = realFetch;
}

export async function english(): Promise<void> {
  const file = '../../locales/en/messages.mjs';
  const { messages } = await import(file);
  i18n.loadAndActivate({ locale: 'en', messages });
}

/** Record setTimeout calls instead of waiting for them; run them on demand. */
export function captureTimers() {
  const real = globalThis.setTimeout;
  const timers: { fn: () => void; ms: number }[] = [];
  globalThis.setTimeout = ((fn: () => void, ms = 0) => {
    timers.push({ fn, ms });
    return real(() => undefined, 0);
  }) as typeof setTimeout;
  return {
    timers,
    restore: () => {
      globalThis.setTimeout = real;
    },
    run(ms: number) {
      for (const t of timers.filter((t) => t.ms === ms)) t.fn();
    },
  };
}

export { callSimulator } from '../../simulator/client.ts';

/**
 * For DOM tests of screens (happy-dom): English, one loopback device for the
 * suite, and a fresh root element per test, emptied after it (then `after`).
 */
export function domSuite(suite: Test, after?: () => void): { dev: FakeDevice; root: HTMLElement } {
  const s = {} as { dev: FakeDevice; root: HTMLElement };
  suite.before(async () => {
    await english();
    s.dev = await fakeDevice();
  });
  suite.after(async () => {
    restoreFetch();
    await s.dev.close();
  });
  suite.before.each(() => {
    s.dev.received.length = 0;
    s.root = document.createElement('div');
    document.body.append(s.root);
  });
  suite.after.each(() => {
    render(null, s.root);
    s.root.remove();
    after?.();
  });
  return s;
}
