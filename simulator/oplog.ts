// The simulated terminal's operation log (contract/oplog.ts; docs/API.md,
// "Operation log"). One hook: dispatch.ts hands every answered call to
// logCall() with the state from before it ran, and this table says which
// calls leave an entry and of what kind. What only the call's effect can
// tell (which stored fields changed, which users came or went) is read by
// comparing the state before and after: names and IDs, never a value.
//
// The log is kept in the store, oldest first, at most OPLOG_SIZE entries
// (the model's oplogSize in tests): it survives a restart, and
// initialization keeps it (areas/maintenance.ts), so the reset is in it.
import { CALLS, type CallName } from '../contract/index.ts';
import { DOOR, OPLOG_KINDS, OPLOG_SIZE } from '../contract/oplog.ts';
import { refuse, type CallImpl, type Context, type DeviceState, type FileReply, type OplogEntry } from './types.ts';
import { deviceTime } from './clock.ts';
import { XLSX_TYPE, workbook } from './areas/records.ts';
import { actionText } from './door.ts';
import { OPEN_NOW } from '../contract/door.ts';

type Params = Record<string, unknown>;

/** Calls whose success is always an entry of this kind. Other POSTs: "Settings written" (5) when they are a settings pair's write or changed what the store keeps. */
const KINDS: Partial<Record<CallName, number>> = {
  chklogin: 1,
  logout: 4,
  adduser: 6,
  GetExcelAddUser: 6,
  edituser: 7,
  UploadUserPhoto: 7,
  regfp: 7,
  InitAdminCard: 7,
  deleteuser: 8,
  deletsomeuser: 8,
  UpdateMachine: 9,
  RestartMachine: 10,
  InitMachine: 11,
  ExportUserAll: 12,
  GetDoorAction: DOOR,
};
/** What the store keeps that is no setting (users and the door have their own kinds; records and the log are not written by a call). */
const NOT_SETTINGS = new Set(['users', 'records', 'oplog', 'door']);

const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);
const isRecord = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
const keysOf = (...o: unknown[]) => [...new Set(o.flatMap((x) => (x && typeof x === 'object' ? Object.keys(x) : [])))];

/** The names of what a call changed in the store: a setting's field names, else the top-level name. Never a value. */
function changed(before: DeviceState, after: DeviceState): string[] {
  const a = before as unknown as Record<string, Record<string, unknown>>;
  const b = after as unknown as Record<string, Record<string, unknown>>;
  const out: string[] = [];
  for (const k of keysOf(a, b)) {
    if (NOT_SETTINGS.has(k) || same(a[k], b[k])) continue;
    const x = a[k];
    const y = b[k];
    if (k === 'settings') for (const pair of keysOf(x, y)) out.push(...keysOf(x?.[pair], y?.[pair]).filter((f) => !same((x?.[pair] as Params)?.[f], (y?.[pair] as Params)?.[f])));
    else if (isRecord(x) || isRecord(y)) out.push(...keysOf(x, y).filter((f) => !same(x?.[f], y?.[f])));
    else out.push(k);
  }
  return [...new Set(out)];
}

/** "5", or "3: 1, 2, 3", or "120: 1, 2, 3, 4, 5, …": the count and the first few IDs. */
function ids(list: string[]): string {
  if (list.length < 2) return list.join('');
  return `${list.length}: ${list.slice(0, 5).join(', ')}${list.length > 5 ? ', …' : ''}`;
}
const idSet = (s: DeviceState) => new Set(s.users.map((u) => u.UserID));
const minus = (a: DeviceState, b: DeviceState) => {
  const keep = idSet(b);
  return a.users.filter((u) => !keep.has(u.UserID)).map((u) => u.UserID);
};

/** The requester's address: an IPv4 one as IPv4 also on a dual-stack socket. */
const address = (peer: string) => peer.replace(/^::ffff:(?=\d+\.)/, '');

/** Append an entry: the ring drops the oldest past its size. */
export async function record(ctx: Context, Kind: number, User: string, Detail: string): Promise<void> {
  const size = ctx.model.oplogSize ?? OPLOG_SIZE;
  const entry: OplogEntry = { Time: deviceTime(ctx), Kind, User: User.slice(0, 32), Address: address(ctx.peer), Detail };
  await ctx.store.update((s) => {
    const log = [...(s.oplog ?? []), entry];
    s.oplog = log.slice(Math.max(0, log.length - size));
  });
}

/**
 * After a call was answered (dispatch.ts): `answer` is its response fields, or
 * the Reply of a refusal (a retvalue other than 0). Only sign-in logs a
 * refusal: 40301 / 40302 (Detail: which), and the one that closed sign-in as
 * a lock (its reply has `wait`); a refusal while locked (40303) is not logged
 * again. Everything else is logged when it succeeded.
 */
export async function logCall(ctx: Context, name: CallName, p: Params, before: DeviceState, answer: Params | FileReply): Promise<void> {
  const code = (answer as Params).retvalue;
  const user = ctx.session?.user ?? '';
  if (name === 'chklogin') {
    const typed = String(p.username).trim();
    if (!code) return record(ctx, 1, typed, '');
    if (code === 40301 || code === 40302) return record(ctx, (answer as Params).wait ? 3 : 2, typed, code === 40301 ? 'unknown user' : 'wrong password');
    return;
  }
  if (code) return;
  const after = ctx.store.get();
  if (name === 'noteOperation') return record(ctx, p.Kind as number, user, '');
  let kind = KINDS[name];
  let detail: string[] = [];
  if (kind === 6) detail = minus(after, before);
  if (kind === 8) detail = minus(before, after);
  if (kind === 7 || (kind === 6 && !detail.length)) detail = [String(p.UserID ?? (answer as Params).Cleared ?? '')];
  if (kind === 9) detail = [`${before.firmware ?? ctx.model.Build_Version} to ${(answer as Params).Version}`];
  if (kind === DOOR) detail = [actionText(ctx, p)];
  if (kind === undefined) {
    // getOnlineEnrollStatus starting or deleting a template edits its user.
    if (name === 'getOnlineEnrollStatus' && (p.Start || p.Delete)) return record(ctx, 7, user, `${name}: ${p.UserID}`);
    // The service command that opens the door is a door action too.
    if (name === 'ExecuteCommand' && p.Code === 300 && ctx.door?.opens) return record(ctx, DOOR, user, `${name} 300: ${actionText(ctx, { Action: OPEN_NOW })}`);
    const spec = CALLS[name];
    const pairWrite = name.startsWith('Get') && `Set${name.slice(3)}` in CALLS && Object.keys(spec.request).length > 0;
    if (spec.method !== 'POST') return;
    const fields = changed(before, after);
    if (!pairWrite && !fields.length) return;
    kind = 5;
    detail = fields;
  }
  return record(ctx, kind, user, detail.length && detail[0] !== '' ? `${name}: ${kind === 5 ? detail.join(', ') : ids(detail)}` : name);
}

// ---------------------------------------------------------------------------
// The calls

const text = (v: unknown) => (typeof v === 'string' ? v : '');

/** The entries a search finds, newest first. */
function search(ctx: Context, q: Params): OplogEntry[] {
  const start = text(q.Start);
  const end = text(q.End);
  if (start && end && end < start) refuse(10005, { field: 'End' });
  const out: OplogEntry[] = [];
  const log = ctx.store.get().oplog ?? [];
  for (let i = log.length - 1; i >= 0; i--) {
    const e = log[i];
    const day = e.Time.slice(0, 10);
    if ((!q.Kind || e.Kind === q.Kind) && (!start || day >= start) && (!end || day <= end)) out.push({ ...e });
  }
  return out;
}

export const handlers: Record<string, CallImpl> = {
  searchOperationLog: {
    handle(ctx, q) {
      const all = search(ctx, q);
      const size = q.PageSize as number;
      const from = ((q.Page as number) - 1) * size;
      return { Total: all.length, List: all.slice(from, from + size) };
    },
  },
  DownloadOperationLog: {
    async handle(ctx, q): Promise<FileReply> {
      const rows = search(ctx, q).map((e) => [e.Time, OPLOG_KINDS[e.Kind as keyof typeof OPLOG_KINDS] ?? String(e.Kind), e.User, e.Address, e.Detail]);
      const name = ['oplog', text(q.Start), text(q.End)].filter(Boolean).join('-');
      return { file: { name: `${name}.xlsx`, type: XLSX_TYPE, data: await workbook('Operation log', ['Time', 'Kind', 'User', 'Address', 'Detail'], rows, [20, 16, 16, 16, 50]) } };
    },
  },
  // The entry itself is logCall's, after the call (as for every other call).
  noteOperation: { handle: () => ({}) },
};
