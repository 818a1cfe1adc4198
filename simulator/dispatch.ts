// Dispatch: a /goform/ call from its request to its answer. Which call it is
// (404 for one the contract does not have, 405 for the wrong method), its
// session (sessions.ts), its parameters (body.ts), the contract's validation
// (validate.ts: 10003, 10005 or the call's own code, naming the field), the
// handler (api.ts's table: the areas), and the operation log (oplog.ts,
// which compares the store before and after). Then the answer goes out: the
// reply envelope as JSON, a file, or an event stream.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CALLS, GOFORM_PREFIX, HEADERS, type CallSpec } from '../contract/index.ts';
import { IMPLEMENTED, isCall, notImplemented } from './api.ts';
import { readParams } from './body.ts';
import { isStreamReply, type EventHub } from './events.ts';
import type { DeviceModel } from './model.ts';
import type { Door } from './door.ts';
import { logCall } from './oplog.ts';
import type { Sessions } from './sessions.ts';
import type { Store } from './store.ts';
import { fail, failureOf, isFileReply, type Context, type DeviceState, type FileReply, type Reply, type Session } from './types.ts';
import { coerce, validate } from './validate.ts';

/** What a call reaches of the running terminal. */
export interface Terminal {
  model: DeviceModel;
  store: Store<DeviceState>;
  sessions: Sessions;
  events: EventHub;
  door: Door;
  now: () => number;
  /** When it last started or restarted (restart.ts). */
  bootedAt: () => number;
  /** The state of a fresh store (InitMachine). */
  factory: () => DeviceState;
  brand?: string;
  certDir?: string;
}

/** `allow`: the method the call takes, for a 405's Allow header. */
export type Answer =
  | { status: number; reply: Reply; file?: undefined; allow?: string; stream?: undefined }
  | { status: 200; file: FileReply['file']; reply?: undefined; allow?: undefined; stream?: undefined }
  | { status: 200; stream: { after: number; session: Session }; reply?: undefined; file?: undefined; allow?: undefined };

/** Answer the /goform/ call `req` asks for. `after.restart`: a handler asked for a restart once its reply is sent (ctx.restart()). */
export async function dispatch(t: Terminal, req: IncomingMessage, url: URL, after: { restart: boolean }): Promise<Answer> {
  const name = url.pathname.slice(GOFORM_PREFIX.length);
  if (!isCall(name)) return { status: 404, reply: fail(10001, { msg: `No such call: ${name}` }) };
  const spec: CallSpec = CALLS[name];
  if (req.method !== spec.method) return { status: 405, reply: fail(10001, { msg: `${name} takes ${spec.method}` }), allow: spec.method };

  const { sessions, store } = t;
  const ctx: Context = {
    model: t.model,
    store,
    sessions: sessions.table,
    ended: sessions.ended,
    idleMs: sessions.idleMs,
    now: t.now,
    bootedAt: t.bootedAt(),
    factory: t.factory,
    peer: req.socket.remoteAddress ?? '',
    logins: sessions.logins,
    certDir: t.certDir,
    brand: t.brand,
    events: t.events,
    door: t.door,
    restart: () => (after.restart = true),
  };
  // The factory test's calls (auth 'factory') are open only while the terminal is in its factory state.
  if (spec.auth === true || (spec.auth === 'factory' && store.get().admin.activated)) {
    const opened = sessions.use(req.headers[HEADERS.token.toLowerCase()], name);
    if (opened.refused) return { status: 200, reply: opened.refused };
    ctx.session = opened.session;
  }

  const decoded = await readParams(req, url, name, spec);
  if (decoded.refused) return { status: 200, reply: decoded.refused };

  const impl = IMPLEMENTED[name];
  if (!impl) return { status: 200, reply: notImplemented(name) };
  const values = coerce(decoded.params, spec.request, decoded.fromText);
  const invalid = validate(values, spec.request);
  if (invalid) {
    const own = impl.invalidCodes && Object.prototype.hasOwnProperty.call(impl.invalidCodes, invalid.field);
    const code = invalid.code === 10005 ? (own ? impl.invalidCodes![invalid.field] : 10005) : 10003;
    return { status: 200, reply: fail(code, { field: invalid.field }) };
  }
  // The operation log (oplog.ts) compares the store before and after the call.
  const before = store.get();
  try {
    const fields = await impl.handle(ctx, values);
    await logCall(ctx, name, values, before, fields);
    if (isStreamReply(fields) && spec.reply === 'stream') return { status: 200, stream: { ...fields.stream, session: ctx.session! } };
    if (isFileReply(fields)) {
      if (spec.reply === 'file') return { status: 200, file: fields.file };
      throw new Error(`${name} answered a file, but the contract says it answers JSON`);
    }
    return { status: 200, reply: { retvalue: 0, ...fields } };
  } catch (err) {
    const reply = failureOf(err);
    if (reply) return (await logCall(ctx, name, values, before, reply), { status: 200, reply });
    console.error(`simulator: ${name} failed:`, err);
    return { status: 500, reply: fail(10001) };
  }
}

/** A name safe inside a quoted Content-Disposition filename. */
const safeName = (name: string) => name.replace(/[^A-Za-z0-9._-]/g, '_') || 'file';

function sendFile(res: ServerResponse, file: FileReply['file']): void {
  res.writeHead(200, {
    'Content-Type': file.type,
    'Content-Disposition': `attachment; filename="${safeName(file.name)}"`,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'Content-Length': file.data.length,
  });
  res.end(file.data);
}

export function sendJson(res: ServerResponse, status: number, body: unknown, allow?: string): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Length': Buffer.byteLength(text),
    ...(allow && { Allow: allow }),
  });
  res.end(text);
}

/** Send an answer: a stream stays open while its session holds (events.ts). */
export function sendAnswer(t: Terminal, res: ServerResponse, answer: Answer): void {
  if (answer.stream) {
    const { after, session } = answer.stream;
    t.events.open(res, after, () => t.sessions.holds(session));
  } else if (answer.file) sendFile(res, answer.file);
  else sendJson(res, answer.status, answer.reply, answer.allow);
}
