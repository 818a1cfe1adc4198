// requestGoform(): the one way the console talks to the device.
// Every rule of SPEC §7 "General" and §8 "Response handling" lives here.
import { GOFORM_PREFIX, HEADERS, REQUEST_TIMEOUT_MS, SUCCESS, TIMESTAMP_PARAM, WAIT } from '../../contract/protocol.ts';
import type { Envelope, Reply, RequestOf } from '../../contract/index.ts';
import { routeOf, type ShippedCall } from './shipped.ts';
import { MSG_DEVICE_RESTART, MSG_NETWORK_CONNECTION_FAILED, MSG_NETWORK_ERROR, messageFor } from './errors.ts';
import { $session, $superLogin, forceLogout } from '../state/session.ts';
import { storedLanguage } from '../i18n/locale.ts';
import { notify } from '../ui/toast.ts';
import { i18n } from '@lingui/core';

/** Delay before a forced logout reloads the page (SPEC §8: "logs out after 1 s"). */
export const LOGOUT_DELAY_MS = 1000;

/** Codes handed back to the caller instead of being treated as failures (SPEC §8). */
const PASSED_TO_CALLER = new Set<number | string>([10003, 10005, WAIT]);

/** A failed call. `shown` is true when the user has already been told. */
export class GoformError extends Error {
  constructor(
    readonly code: number | string,
    message: string,
    readonly shown: boolean,
    readonly reply?: Envelope,
  ) {
    super(message);
  }
}

/** Code for a request that never got a device answer. */
export const NETWORK_ERROR = 'network';
export const TIMEOUT_ERROR = 'timeout';

type Params = Record<string, unknown>;

function encodeValue(v: unknown): string {
  return typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v);
}

function toSearch(params: Params, into: URLSearchParams): URLSearchParams {
  for (const [k, v] of Object.entries(params)) if (v !== undefined) into.append(k, encodeValue(v));
  return into;
}

/** Parse a device body: JSON, possibly delivered as a JSON string holding JSON (SPEC §8). */
export function parseBody(text: string): unknown {
  let value: unknown = JSON.parse(text);
  if (typeof value === 'string') value = JSON.parse(value);
  return value;
}

function isEnvelope(v: unknown): v is Envelope {
  return typeof v === 'object' && v !== null && 'retvalue' in v;
}

export interface RequestOptions {
  /** Overrides the 60 s timeout (tests). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Codes the caller shows itself (e.g. at a field): handed back like 10003, with nothing said. */
  expect?: readonly number[];
}

/**
 * Make a /goform/ call. Resolves with the reply on success and for the codes
 * SPEC §8 passes to the caller (10003, 10005, "wait"); rejects with a
 * GoformError otherwise, after telling the user where SPEC §8 says so.
 */
export async function requestGoform<N extends ShippedCall>(name: N, params?: RequestOf<N>, options: RequestOptions = {}): Promise<Reply<N>> {
  return handleReply(await transport(name, params, options), options.expect) as Reply<N>;
}

/**
 * A read whose reply a screen shows: the reply when it succeeded, else the
 * words for its failure, to show in its place (this layer has already told
 * the user where SPEC §8 says so).
 */
export const readOrFailure = (name: ShippedCall, params?: object): Promise<Record<string, unknown> | string> =>
  requestGoform(name, params as never).then((r) => (r.retvalue === 0 ? (r as unknown as Record<string, unknown>) : messageFor(r.retvalue as number, r.msg)), (e: Error) => e.message);

/** A call's URL, method, headers and body, as SPEC §7 General says (headers, timestamp, encoding). */
export function prepare(name: ShippedCall, params: object = {}) {
  const spec = routeOf(name);
  const query = new URLSearchParams();
  query.set(TIMESTAMP_PARAM, String(Date.now()));
  const headers: Record<string, string> = {
    'Cache-Control': 'no-cache',
    Pragma: 'no-cache',
    [HEADERS.language]: storedLanguage(),
  };
  const token = $session.get()?.token;
  if (token) headers[HEADERS.token] = token;

  let body: string | FormData | undefined;
  const p = params as Params;
  if (spec.method === 'GET' || spec.encoding === 'query') {
    toSearch(p, query);
  } else if (spec.encoding === 'multipart') {
    // Files as file parts, the rest as text; the browser writes the boundary.
    body = new FormData();
    for (const [k, v] of Object.entries(p)) if (v !== undefined) body.append(k, v instanceof Blob ? v : encodeValue(v));
  } else if (spec.encoding === 'form') {
    body = toSearch(p, new URLSearchParams()).toString();
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
  } else {
    body = JSON.stringify(p);
    headers['Content-Type'] = 'application/json';
  }
  return { url: `${GOFORM_PREFIX}${spec.path}?${query}`, method: spec.method, headers, body };
}

/** Says that no device answer came, and the error to throw. */
export function noAnswer(timedOut: boolean): GoformError {
  const text = i18n._(timedOut ? MSG_NETWORK_CONNECTION_FAILED : MSG_NETWORK_ERROR);
  notify('error', text);
  return new GoformError(timedOut ? TIMEOUT_ERROR : NETWORK_ERROR, text, true);
}

/**
 * The request prepared as above, with the 60 s timeout; `read` turns the
 * HTTP answer into the device's reply. Rejects, after saying so, when no
 * answer came.
 */
export async function transport(name: ShippedCall, params: object = {}, options: RequestOptions = {}, read = async (res: Response): Promise<unknown> => parseBody(await res.text())): Promise<unknown> {
  const { url, ...init } = prepare(name, params);
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs ?? REQUEST_TIMEOUT_MS);
  options.signal?.addEventListener('abort', () => controller.abort());

  try {
    const res = await fetch(url, {
      ...init,
      cache: 'no-store',
      signal: controller.signal,
    });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return await read(res);
  } catch (err) {
    if (options.signal?.aborted) throw new GoformError('aborted', 'aborted', true);
    throw noAnswer(timedOut);
  } finally {
    clearTimeout(timer);
  }
}

/** SPEC §8 response handling, separate from transport so it reads like the spec. */
export function handleReply(reply: unknown, expect?: readonly number[]): Envelope {
  if (!isEnvelope(reply)) {
    const text = messageFor(10001);
    notify('error', text);
    throw new GoformError(10001, text, true);
  }
  if (reply.reboot === true || reply.reboot === 1) {
    notify('info', i18n._(MSG_DEVICE_RESTART));
    forceLogout(LOGOUT_DELAY_MS);
    throw new GoformError(reply.retvalue, i18n._(MSG_DEVICE_RESTART), true, reply);
  }
  const code = reply.retvalue;
  if (code === SUCCESS || PASSED_TO_CALLER.has(code) || expect?.includes(code as number)) return reply;

  switch (code) {
    // The device ended the session (idle too long) or does not know the token: say so, sign out after 1 s; the sign-in page says it again.
    case 40104:
    case 10002:
    case 11001: {
      const text = messageFor(code, reply.msg);
      notify('error', text);
      forceLogout(LOGOUT_DELAY_MS, text);
      throw new GoformError(code, text, true, reply);
    }
    case 11000:
      // Rejected silently.
      throw new GoformError(code, messageFor(code, reply.msg), false, reply);
    case 11003:
      $superLogin.set(true);
      throw new GoformError(code, messageFor(code, reply.msg), false, reply);
    default: {
      const text = messageFor(code, reply.msg, reply as unknown as Record<string, unknown>);
      notify('error', text);
      throw new GoformError(code, text, true, reply);
    }
  }
}
