// One HTTP or HTTPS request from a test, exactly as given: the Host and every
// other header as they are (fetch may not set Host), the body's bytes as they
// came (no decompression), HTTPS trusting only `ca` when given. For the tests
// of whom a server answers and how (tests/simulator/activation.test.ts, tests/servers).
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface Raw {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export function raw(url: string, init: { method?: string; headers?: Record<string, string>; body?: Buffer | string; ca?: string | Buffer } = {}): Promise<Raw> {
  const request = new URL(url).protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((res, rej) => {
    const req = request(url, { method: init.method ?? 'GET', headers: init.headers, ...(init.ca && { ca: init.ca, agent: false }) }, (r) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => res({ status: r.statusCode!, headers: r.headers, body: Buffer.concat(chunks) }));
      r.on('error', rej);
    });
    req.on('error', rej);
    req.setTimeout(20_000, () => req.destroy(new Error(`no answer from ${url}`)));
    req.end(init.body);
  });
}
