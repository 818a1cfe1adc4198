// Body decoding: a /goform/ call's parameters, read from its query or its
// body as the call's encoding says (a query, JSON, a form, multipart), within
// the body limits. UTF-8 or nothing: a body or query with bytes that are not
// UTF-8 is refused (10005), never stored as U+FFFD. The names that arrive land
// on objects without a prototype (`__proto__` lands on nothing); what the
// contract does not name is validate.ts's to refuse.
import type { IncomingMessage } from 'node:http';
import { TIMESTAMP_PARAM, type CallSpec } from '../contract/index.ts';
import { SHEET_MAX_BYTES } from '../contract/users.ts';
import { FIRMWARE_MAX_BYTES } from '../contract/maintenance.ts';
import { REQUEST_MAX_BYTES } from '../contract/codes.ts';
import { fail, type Reply, type Upload } from './types.ts';

/** Body limit of JSON and form calls; a larger body is read to its end, thrown away and answered 10101. */
const MAX_BODY = REQUEST_MAX_BYTES;
const utf8 = new TextDecoder('utf-8', { fatal: true });
/** A body or query that cannot be read as the call's encoding (not UTF-8, not JSON, no form): 10005 naming no field. */
const notReadable = () => ({ refused: fail(10005, { field: '' }) });

/** Whether %-escapes in a query, a form body or a path decode to UTF-8 text. */
export function decodable(encoded: string): boolean {
  try {
    decodeURIComponent(encoded.replace(/\+/g, ' '));
    return true;
  } catch {
    return false;
  }
}

/**
 * Body limit of a multipart call: the largest file it takes (a firmware
 * package for UpdateMachine, else a spreadsheet, the largest of the others)
 * with room for the parts' headers and text fields. A larger body is read to
 * its end and thrown away, then answered 10101, so the sender gets a reply
 * rather than a reset; past MAX_DISCARD the connection is reset after all.
 * A file within the body limit but over its call's own limit is the
 * handler's to refuse (10101 as well).
 */
const FILE_LIMITS = new Map<string, number>([['UpdateMachine', FIRMWARE_MAX_BYTES]]);
const multipartLimit = (name: string) => (FILE_LIMITS.get(name) ?? SHEET_MAX_BYTES) + (64 << 10);
const MAX_DISCARD = 64 << 20;

/** The body, or null when it was over `limit` and `discard` was asked for (read and thrown away). */
function readBody(req: IncomingMessage, limit: number, discard: boolean): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    let chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= limit) chunks.push(c);
      else if (discard && size <= MAX_DISCARD) {
        over = true;
        chunks = [];
      } else {
        reject(new Error('body too large'));
        req.destroy();
      }
    });
    req.on('end', () => resolve(over ? null : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * A multipart/form-data (or URL-encoded) body, parsed by the platform's own
 * parser: file parts become Upload objects, text parts stay text for
 * coerce(). A part sent twice is refused (its name), a body that does not
 * parse answers null. An empty file part with no name is what a browser
 * sends for "no file chosen": left out.
 */
async function multipart(body: Buffer, type: string | undefined): Promise<{ params: Record<string, unknown> } | { twice: string } | null> {
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(body), { headers: { 'content-type': type ?? '' } }).formData();
  } catch {
    return null;
  }
  const params: Record<string, unknown> = Object.create(null);
  for (const [k, v] of form) {
    if (Object.prototype.hasOwnProperty.call(params, k)) return { twice: k };
    if (typeof v === 'string') params[k] = v;
    else if (v.name || v.size) params[k] = { filename: v.name, type: v.type, data: Buffer.from(await v.arrayBuffer()) } satisfies Upload;
  }
  return { params };
}

/** The file fields of a call, for a 10101 about a body too large to read. */
const fileField = (spec: CallSpec) => Object.keys(spec.request).find((k) => spec.request[k].kind === 'file') ?? '';

/** A call's parameters (`fromText`: read from text, for coerce()), or the refusal of a request that cannot be read. */
export type Decoded = { params: Record<string, unknown>; fromText: boolean; refused?: undefined } | { refused: Reply };

/** The parameters of call `name` (`spec`), the cache-busting timestamp left out. */
export async function readParams(req: IncomingMessage, url: URL, name: string, spec: CallSpec): Promise<Decoded> {
  // No prototype: a request's names (`__proto__`) land on nothing.
  let params: Record<string, unknown> = Object.create(null);
  let fromText = true;
  if (!decodable(url.search.slice(1))) return notReadable();
  if (spec.method === 'GET' || spec.encoding === 'query') {
    for (const [k, v] of url.searchParams) params[k] = v;
    // A reconnecting EventSource says where it was in Last-Event-ID; it goes before After.
    const lastId = req.headers['last-event-id'];
    if (spec.reply === 'stream' && typeof lastId === 'string' && lastId) params.After = lastId;
  } else if (spec.encoding === 'multipart') {
    const body = await readBody(req, multipartLimit(name), true);
    if (!body) return { refused: fail(10101, { field: fileField(spec) }) };
    const parsed = await multipart(body, req.headers['content-type']);
    if (!parsed) return notReadable();
    if ('twice' in parsed) return { refused: fail(10005, { field: parsed.twice }) };
    params = parsed.params;
    for (const [k, v] of url.searchParams) if (k === TIMESTAMP_PARAM) params[k] = v;
  } else {
    const raw = await readBody(req, MAX_BODY, true);
    if (!raw) return { refused: fail(10101, { field: '' }) };
    let body: string;
    try {
      body = utf8.decode(raw);
    } catch {
      return notReadable();
    }
    if (spec.encoding === 'form' && !decodable(body)) return notReadable();
    if (spec.encoding === 'json') {
      fromText = false;
      try {
        params = body ? JSON.parse(body) : {};
      } catch {
        return notReadable();
      }
      if (typeof params !== 'object' || params === null || Array.isArray(params)) return notReadable();
    } else {
      for (const [k, v] of new URLSearchParams(body)) params[k] = v;
    }
    for (const [k, v] of url.searchParams) if (k === TIMESTAMP_PARAM) params[k] = v;
  }
  delete params[TIMESTAMP_PARAM];
  return { params, fromText };
}
