// What the simulator's areas and its API table share: the device state, the
// handler context and shape, and the one way the simulator refuses (fail,
// refuse). The areas import this, never api.ts or the server's modules, so
// nothing imports back a module that imports it.
import { ADDED_CODES } from '../contract/codes.ts';
import type { LoginGuard } from './login-guard.ts';
import type { DeviceModel } from './model.ts';
import type { Store } from './store.ts';

export interface DeviceState {
  /**
   * The administrator. Without `activated` the terminal is in its factory
   * state: the factory credential (the model's admin) signs in only to
   * choose a new password (Activate; docs/API.md, "Activation").
   */
  admin: { username: string; password: string; activated?: true };
  LanguageSettingItem: 0 | 1;
  /** The terminal's users, in numeric ID order (simulator/areas/users.ts keeps them). */
  users: User[];
  /**
   * The attendance and temperature records: how many a fresh store was
   * seeded with, and from how many seed users. The records themselves are
   * generated from these, the same every time (simulator/areas/records.ts);
   * all 0 once they are deleted (InitMachine).
   */
  records: { attendance: number; temperature: number; users: number };
  /** Build_Version after a firmware upgrade; absent: the model's. */
  firmware?: string;
  /** Settings pairs by name without the Set/Get prefix (KaoqinParam, ...). */
  settings: Record<string, Record<string, unknown>>;
  /**
   * The HTTPS certificate (with its chain) and private key, PEM, as GetCertificate
   * names them: the installed ones, or those the terminal made itself at first
   * use (areas/certificate.ts). Absent until then.
   */
  certificate?: { Cert: string; Key: string };
  /** The door's mode when an administrator set it to remain open (1) or closed (2), and when (door.ts); absent: normal. */
  door?: { Mode: 1 | 2; Since: string };
  /** The operation log, oldest first (simulator/oplog.ts); it survives initialization. */
  oplog?: OplogEntry[];
}

/** An operation log entry: exactly searchOperationLog's List fields. */
export interface OplogEntry {
  Time: string;
  Kind: number;
  User: string;
  Address: string;
  Detail: string;
}

/**
 * A user as the terminal stores it: exactly the contract's USER_FIELDS
 * (contract/users.ts; optional ones defaulted: '' or 0) and what is enrolled
 * (GetUserInfo's Face, FPMask, Photo). Nothing the contract does not name.
 */
export interface User {
  UserID: string;
  UserName: string;
  Password: string;
  CardNo: string;
  CardType: number;
  Admin: number;
  Group: number;
  IdentifyMode: number;
  Shift: number;
  AccessBegin: string;
  AccessEnd: string;
  /** 1 when a face template is enrolled. */
  Face: 0 | 1;
  /** Bit n set when finger n (FINGERS order) is enrolled. */
  FPMask: number;
  /** 1 when a face photo is stored (the file beside the store, see areas/users.ts). */
  Photo: 0 | 1;
}

export interface Reply {
  retvalue: number | 'wait';
  msg?: string;
  reboot?: boolean;
  field?: string;
  [k: string]: unknown;
}

export interface Session {
  token: string;
  user: string;
  lastUsed: number;
  /** SetSessionList's Id (random; not the token), the address it signed in from, when (ms, now()'s clock). */
  id: string;
  peer: string;
  since: number;
  /** Opened by the factory credential in the factory state: it may only choose the password (activation.ts). */
  activation?: boolean;
}

export interface Context {
  model: DeviceModel;
  store: Store<DeviceState>;
  sessions: Map<string, Session>;
  /** Tokens GetSessionLogout ended, oldest first: their next call answers 40104 once (areas/sessions.ts bounds it). */
  ended: Set<string>;
  /** How long a session may be unused before it ends (ms). */
  idleMs: () => number;
  session?: Session;
  now: () => number;
  /** When the terminal last started or restarted (ms, now()'s clock): uptime counts from it. */
  bootedAt: number;
  /** The state of a fresh store: the model's factory state (seedState). */
  factory: () => DeviceState;
  /**
   * Restart the terminal once this call's reply has been sent (RestartMachine,
   * InitMachine, a good UpdateMachine): it stops answering for the model's
   * restartMs, every session ends, then it answers again on the same address.
   */
  restart: () => void;
  /** The requester's address (the login lock counts per address). */
  peer: string;
  /** Failed sign-ins (login-guard.ts); in memory, cleared by a restart. */
  logins: LoginGuard;
  /** The brand the terminal is for (SimulatorOptions.brand): which of the model's firmware keys it holds. */
  brand?: string;
  /** Where the certificate and key are written as cert.pem and key.pem (SimulatorOptions.certDir); none: only the store keeps them. */
  certDir?: string;
  /** The live events the terminal holds, and what makes one (events.ts's EventHub; the factory test's test_event). */
  events?: {
    readonly lastId: number;
    since(after: number): Record<string, unknown>[];
    emit(h: { Kind: number; Mode?: number }): Record<string, unknown>;
    present(UserID: string, Mode?: number, refused?: boolean): Record<string, unknown>;
  };
  /** The door (door.ts's Door; the service command that opens it uses this much). */
  door?: { readonly present: boolean; readonly opens: boolean; readonly delay: number; openNow(seconds?: number): number };
}

/** A file that arrived in a multipart body. */
export interface Upload {
  filename: string;
  type: string;
  data: Buffer;
}

export function isUpload(v: unknown): v is Upload {
  const u = v as Upload;
  return typeof v === 'object' && v !== null && typeof u.filename === 'string' && typeof u.type === 'string' && Buffer.isBuffer(u.data);
}

/** A file a handler answers instead of JSON (an export, a photo); only calls with `reply: 'file'` may. */
export interface FileReply {
  file: { name: string; type: string; data: Buffer };
}

export function isFileReply(v: unknown): v is FileReply {
  const f = (v as FileReply | null)?.file;
  return typeof f === 'object' && f !== null && typeof f.name === 'string' && typeof f.type === 'string' && Buffer.isBuffer(f.data);
}

export type Handler = (ctx: Context, params: Record<string, unknown>) => Promise<Record<string, unknown> | FileReply> | Record<string, unknown> | FileReply;

export interface CallImpl {
  handle: Handler;
  /** Codes for invalid values of particular fields, instead of the generic 10005. */
  invalidCodes?: Record<string, number>;
}

// How the simulator refuses, everywhere: a handler (or what it calls) throws
// refuse(code, ...), and dispatch.ts answers the reply fail() makes of it;
// the refusals before a handler runs (dispatch.ts, sessions.ts, body.ts)
// are fail() replies.

/** The `msg` of a code: the contract's own key for the codes it adds (msg.fwChecksum, ...), else err.<code>. */
export const msgOf = (code: number) => ADDED_CODES.find((c) => c.code === code)?.msg ?? `err.${code}`;

/**
 * The reply of a refusal, in this order on the wire: `retvalue`, `msg` (the
 * code's, msgOf, unless `extra` gives one of its own), then what else
 * `extra` says (the field at fault, a `wait`).
 */
export function fail(retvalue: number, extra: Partial<Reply> = {}): Reply {
  return { retvalue, msg: msgOf(retvalue), ...extra };
}

class Failure extends Error {
  constructor(readonly reply: Reply) {
    super(reply.msg);
  }
}

/** Refuse the call: throws, and the answer is fail(code, extra). */
export function refuse(code: number, extra?: Partial<Reply>): never {
  throw new Failure(fail(code, extra));
}

/** The reply a refuse() threw, or null for any other error (a fault of the simulator's: 10001, HTTP 500). */
export function failureOf(err: unknown): Reply | null {
  return err instanceof Failure ? err.reply : null;
}
