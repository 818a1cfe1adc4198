// The contract fuzz (contract-fuzz.ts): a case as an HTTP request, and the
// client that sends it (one request, with a timeout; a dropped connection is
// an answer too).
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { GOFORM_PREFIX, HEADERS, TIMESTAMP_PARAM } from '../../../contract/index.ts';
import { SPECS } from './contract.ts';
import { deepText, isFile, isToken, textOf, type Case } from './oracle.ts';

// ---------------------------------------------------------------------------
// Encoding a case as an HTTP request

interface Wire {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

/**
 * `s` repeated `n` times as a JSON string: its escaped bytes copied n times into one buffer, the bytes
 * JSON.stringify would give (a text without surrogates escapes character by character). For the bodies
 * over a mebibyte: as one string, stringified and encoded, they were the fuzz's own costliest step.
 */
function repeatedJson(s: string, n: number): Buffer {
  if (/[\ud800-\udfff]/.test(s)) return Buffer.from(JSON.stringify(s.repeat(n)));
  const unit = Buffer.from(JSON.stringify(s).slice(1, -1));
  const out = Buffer.allocUnsafe(unit.length * n + 2);
  out[0] = out[out.length - 1] = 0x22;
  if (n > 0) out.fill(unit, 1, out.length - 1);
  return out;
}

function jsonText(w: unknown): Buffer {
  if (isToken(w)) {
    switch (w.$) {
      case 'text':
        return repeatedJson(w.s, w.n);
      case 'raw':
        return Buffer.from(w.text);
      case 'bytes':
        return Buffer.concat([Buffer.from(JSON.stringify(w.pre).slice(0, -1)), Buffer.from(w.hex, 'hex'), Buffer.from('"')]);
      case 'deep':
        return Buffer.from(deepText(w));
      case 'file':
        return Buffer.from(JSON.stringify(`${w.name}:${w.hex}`));
    }
  }
  if (Array.isArray(w)) return Buffer.concat([Buffer.from('['), ...w.flatMap((x, i) => (i ? [Buffer.from(','), jsonText(x)] : [jsonText(x)])), Buffer.from(']')]);
  if (typeof w === 'number' && Object.is(w, -0)) return Buffer.from('-0');
  return Buffer.from(JSON.stringify(w) ?? 'null');
}
export function jsonObject(entries: [string, unknown][]): Buffer {
  const parts: Buffer[] = [Buffer.from('{')];
  entries.forEach(([k, v], i) => parts.push(Buffer.from(`${i ? ',' : ''}${JSON.stringify(k)}:`), jsonText(v)));
  parts.push(Buffer.from('}'));
  return Buffer.concat(parts);
}

/** A value as %-encoded text (query, form body). */
function urlText(w: unknown): string {
  if (isToken(w) && w.$ === 'raw') return w.text;
  if (isToken(w) && w.$ === 'bytes') return encodeURIComponent(w.pre) + w.hex.replace(/../g, (h) => `%${h.toUpperCase()}`);
  if (isToken(w) && w.$ === 'file') return encodeURIComponent(w.name);
  return encodeURIComponent(plainText(w));
}
/** The text of a value that is no raw or bytes token. */
function plainText(w: unknown): string {
  const d = textOf(w, 'multipart', '');
  return 'value' in d ? String(d.value) : '';
}
const urlPairs = (entries: [string, unknown][]) => entries.map(([k, v]) => `${encodeURIComponent(k)}=${urlText(v)}`).join('&');

function multipartBody(entries: [string, unknown][], boundary: string): Buffer {
  const parts: Buffer[] = [];
  const name = (k: string) => k.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  for (const [k, w] of entries) {
    if (isFile(w)) {
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name(k)}"; filename="${name(w.name)}"\r\nContent-Type: ${w.type}\r\n\r\n`));
      parts.push(Buffer.from(w.hex.repeat(w.n ?? 1), 'hex'), Buffer.from('\r\n'));
      continue;
    }
    let data: Buffer;
    if (isToken(w) && w.$ === 'bytes') data = Buffer.concat([Buffer.from(w.pre), Buffer.from(w.hex, 'hex')]);
    else data = Buffer.from(plainText(w));
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name(k)}"\r\n\r\n`), data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(parts);
}

export const BOUNDARY = '----fuzz7MA4YWxkTrZu0gW';
export function toWire(c: Case, token: string | undefined): Wire {
  const spec = SPECS[c.call];
  const headers: Record<string, string> = { 'Cache-Control': 'no-cache', Pragma: 'no-cache', [HEADERS.language]: 'en' };
  if (token !== undefined) headers[HEADERS.token] = token;
  let query = `${TIMESTAMP_PARAM}=${Date.now()}`;
  let body: Buffer | undefined;
  if (c.enc === 'query') {
    const pairs = urlPairs(c.fields);
    if (pairs) query += `&${pairs}`;
    if (c.tail) query += c.tail;
  } else if (c.enc === 'form') {
    body = Buffer.from(urlPairs(c.fields) + (c.tail ?? ''));
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
  } else if (c.enc === 'multipart') {
    body = multipartBody(c.fields, BOUNDARY);
    headers['Content-Type'] = `multipart/form-data; boundary=${BOUNDARY}`;
  } else {
    body = jsonObject(c.fields);
    headers['Content-Type'] = 'application/json';
  }
  if (c.body !== undefined) body = isToken(c.body) && c.body.$ === 'bytes' ? Buffer.concat([Buffer.from(c.body.pre), Buffer.from(c.body.hex, 'hex')]) : isToken(c.body) && c.body.$ === 'raw' ? Buffer.from(c.body.text) : jsonText(c.body);
  if (c.ctype !== undefined) {
    if (c.ctype) headers['Content-Type'] = c.ctype;
    else delete headers['Content-Type'];
  }
  return { method: c.method, path: `${GOFORM_PREFIX}${spec.path}?${query}`, headers, body };
}

// ---------------------------------------------------------------------------
// HTTP: one request, with a timeout; a dropped connection is an answer too

export interface Outcome {
  status?: number;
  /** The reply, parsed, when it is JSON. */
  json?: unknown;
  /** Content type and size when the reply is not JSON. */
  file?: { type: string; size: number; head: string };
  error?: string;
  ms: number;
}

function collect(res: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    // A stream of events (EventStream) does not end: its first bytes are the answer, then the connection is dropped.
    const stream = /^text\/event-stream/.test(String(res.headers['content-type']));
    res.on('data', (c: Buffer) => {
      chunks.push(c);
      if (stream) {
        resolve(Buffer.concat(chunks));
        res.destroy();
      }
    });
    res.on('end', () => resolve(Buffer.concat(chunks)));
    res.on('error', reject);
  });
}

export class Http {
  private readonly agent: HttpAgent;
  requests = 0;
  constructor(
    readonly base: URL,
    readonly timeoutMs: number,
  ) {
    this.agent = base.protocol === 'https:' ? new HttpsAgent({ keepAlive: true, maxSockets: 1, rejectUnauthorized: false }) : new HttpAgent({ keepAlive: true, maxSockets: 1 });
  }
  close() {
    this.agent.destroy();
  }

  async send(w: Wire, retried = false): Promise<Outcome> {
    this.requests++;
    const started = Date.now();
    const request = this.base.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<Outcome>((resolve) => {
      let reused = false;
      const req = request({
        host: this.base.hostname.replace(/^\[|\]$/g, ''), // [::1] -> ::1
        port: this.base.port || undefined,
        method: w.method,
        path: w.path,
        headers: { ...w.headers, ...(w.body ? { 'Content-Length': String(w.body.length) } : {}) },
        agent: this.agent,
      });
      const timer = setTimeout(() => req.destroy(new Error(`no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
      req.on('socket', () => (reused = (req as unknown as { reusedSocket: boolean }).reusedSocket));
      req.on('response', (res) => {
        collect(res).then(
          (buf) => {
            clearTimeout(timer);
            const type = String(res.headers['content-type'] ?? '');
            const ms = Date.now() - started;
            if (/json/i.test(type) || (!type && /^\s*[{[]/.test(buf.toString('latin1', 0, 8)))) {
              try {
                resolve({ status: res.statusCode, json: JSON.parse(buf.toString('utf8')), ms });
              } catch {
                resolve({ status: res.statusCode, file: { type, size: buf.length, head: buf.toString('utf8', 0, 120) }, ms });
              }
            } else resolve({ status: res.statusCode, file: { type, size: buf.length, head: buf.toString('utf8', 0, 120) }, ms });
          },
          (err: Error) => {
            clearTimeout(timer);
            resolve({ status: res.statusCode, error: `the reply broke off (${err.message})`, ms: Date.now() - started });
          },
        );
      });
      req.on('error', (err: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        // A kept-alive connection the server closed as the request went out: once more, on a new connection
        // (a request that itself makes the server drop the connection is dropped again there, and reported).
        if (reused && !retried && ['ECONNRESET', 'EPIPE'].includes(err.code ?? '')) {
          this.requests--;
          resolve(this.send(w, true));
          return;
        }
        resolve({ error: err.message.startsWith('no answer') ? err.message : `connection dropped (${err.code ?? err.message})`, ms: Date.now() - started });
      });
      req.end(w.body);
    });
  }
}
