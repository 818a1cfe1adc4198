// The simulated terminal's users (DeviceState.users, kept in numeric ID
// order) and their index: lookups go through a Map by UserID, built once per
// store state (a change replaces the array, so the next read builds it anew).
// Also how a user is checked and saved, which adduser and an import share.
import { FINGERS, USER_FIELDS } from '../../../contract/users.ts';
import { ADD_LIMIT } from '../../../contract/codes.ts';
import type { DeviceModel } from '../../model.ts';
import { refuse, type Context, type User } from '../../types.ts';

export type Params = Record<string, unknown>;
export type FieldName = keyof typeof USER_FIELDS;
export interface Problem {
  code: number;
  field: string;
}

export const FIELD_NAMES = Object.keys(USER_FIELDS) as FieldName[];
const CARD_MAX = 4294967295;
export const own = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);
/** Codes for malformed values instead of 10005 (the contract's docs). */
export const INVALID_CODES = { UserID: 40401, Password: 40404 };
export const problem = (code: number, field: string): Problem => ({ code, field });
export const noUser = (): never => refuse(40401, { field: 'UserID' });

/** Numeric order of user IDs (no leading zeros: length, then text). */
export const byId = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
export const sortUsers = (list: User[]) => list.sort((a, b) => byId(a.UserID, b.UserID));

export class Index {
  readonly byId = new Map<string, User>();
  readonly byCard = new Map<string, User>();
  readonly byPassword = new Map<string, User>();
  constructor(users: readonly User[]) {
    for (const u of users) this.add(u);
  }
  add(u: User): void {
    this.byId.set(u.UserID, u);
    if (u.CardNo) this.byCard.set(u.CardNo, u);
    if (u.Password) this.byPassword.set(u.Password, u);
  }
}

interface View {
  index: Index;
  /** The users in numeric ID order. */
  sorted: readonly User[];
}
const VIEWS = new WeakMap<readonly User[], View>();

/** The index of the store's current users, built once per state. */
export function view(ctx: Context): View {
  const users = ctx.store.get().users;
  let v = VIEWS.get(users);
  if (!v) {
    const inOrder = users.every((u, i) => i === 0 || byId(users[i - 1].UserID, u.UserID) < 0);
    v = { index: new Index(users), sorted: inOrder ? users : sortUsers([...users]) };
    VIEWS.set(users, v);
  }
  return v;
}

export const find = (ctx: Context, id: unknown) => view(ctx).index.byId.get(String(id));
/** A user by ID, through the index (the records name users by ID). */
export const userById = (ctx: Context, id: string): User | undefined => find(ctx, id);

/** Insert or replace `u`, keeping numeric ID order. */
function put(users: User[], u: User): void {
  let lo = 0;
  let hi = users.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (byId(users[mid].UserID, u.UserID) < 0) lo = mid + 1;
    else hi = mid;
  }
  if (users[lo]?.UserID === u.UserID) users[lo] = u;
  else users.splice(lo, 0, u);
}

const bits = (n: number) => {
  let c = 0;
  for (let m = n; m; m &= m - 1) c++;
  return c;
};

/** What SetInfoParam counts. */
export function userCounts(users: readonly User[]) {
  let fp = 0;
  let face = 0;
  let card = 0;
  for (const u of users) {
    fp += bits(u.FPMask);
    face += u.Face;
    if (u.CardNo) card++;
  }
  return { UserCount: users.length, FPCount: fp, FaceCount: face, CardCount: card };
}

/** A stored user from request values (validated), keeping what `old` has enrolled. */
export function userFrom(p: Params, old?: User): User {
  const text = (k: FieldName) => (typeof p[k] === 'string' ? (p[k] as string) : '');
  const int = (k: FieldName) => (typeof p[k] === 'number' ? (p[k] as number) : 0);
  return {
    UserID: text('UserID'),
    UserName: text('UserName'),
    Password: text('Password'),
    CardNo: text('CardNo'),
    CardType: int('CardType'),
    Admin: int('Admin'),
    Group: int('Group'),
    IdentifyMode: int('IdentifyMode'),
    Shift: int('Shift'),
    AccessBegin: text('AccessBegin'),
    AccessEnd: text('AccessEnd'),
    Face: old?.Face ?? 0,
    FPMask: old?.FPMask ?? 0,
    Photo: old?.Photo ?? 0,
  };
}

/** The checks beyond one field's form: a card number over 32 bits, a period that ends before it begins. */
export function rangeProblem(u: User): Problem | null {
  if (u.CardNo && Number(u.CardNo) > CARD_MAX) return problem(10005, 'CardNo');
  if (u.AccessBegin && u.AccessEnd && u.AccessEnd < u.AccessBegin) return problem(10005, 'AccessEnd');
  return null;
}

/**
 * Whether `u` may be saved beside the users of `index` (`count` of them):
 * 'add' refuses an ID that exists, 'replace' replaces it, 'edit' needs it.
 */
export function saveProblem(index: Index, count: number, u: User, mode: 'add' | 'replace' | 'edit', model: DeviceModel): Problem | null {
  const old = index.byId.get(u.UserID);
  if (old && mode === 'add') return problem(40402, 'UserID');
  if (!old && mode === 'edit') return problem(40401, 'UserID');
  const card = u.CardNo ? index.byCard.get(u.CardNo) : undefined;
  if (card && card.UserID !== u.UserID) return problem(40403, 'CardNo');
  const pin = u.Password ? index.byPassword.get(u.Password) : undefined;
  if (pin && pin.UserID !== u.UserID) return problem(40405, 'Password');
  if (!old && count >= model.MaxUser) return problem(ADD_LIMIT, 'UserID');
  if (u.CardNo && !old?.CardNo && index.byCard.size >= model.MaxCard) return problem(ADD_LIMIT, 'CardNo');
  return null;
}

/** Save one user (add, replace or edit) in one store change; checks run on the state the change applies to. */
export async function save(ctx: Context, p: Params, mode: 'add' | 'replace' | 'edit'): Promise<void> {
  const range = rangeProblem(userFrom(p));
  if (range) refuse(range.code, { field: range.field });
  await ctx.store.update((s) => {
    const index = new Index(s.users);
    const u = userFrom(p, index.byId.get(String(p.UserID)));
    const bad = saveProblem(index, s.users.length, u, mode, ctx.model);
    if (bad) refuse(bad.code, { field: bad.field });
    put(s.users, u);
  });
}

/** Users of a store written before they had the contract's shape ({id, name, card, fingerprints, face}); null when nothing needs doing. */
export function upgradeUsers(list: readonly unknown[]): User[] | null {
  const current = (u: unknown): u is User => typeof (u as User)?.UserID === 'string';
  if (list.every(current) && list.every((u, i) => i === 0 || byId((list[i - 1] as User).UserID, u.UserID) < 0)) return null;
  const out = new Map<string, User>();
  for (const x of list) {
    let u: User;
    if (current(x)) u = x;
    else {
      const o = (x ?? {}) as { id?: unknown; name?: unknown; card?: unknown; fingerprints?: unknown; face?: unknown };
      const fingers = Math.min(FINGERS.length, Math.max(0, Number(o.fingerprints) || 0));
      u = {
        ...userFrom({ UserID: String(o.id ?? ''), UserName: String(o.name ?? ''), CardNo: typeof o.card === 'string' ? o.card : '' }),
        Face: o.face ? 1 : 0,
        FPMask: (1 << fingers) - 1,
      };
    }
    if (/^[1-9][0-9]{0,9}$/.test(u.UserID) && !out.has(u.UserID)) out.set(u.UserID, u);
  }
  return sortUsers([...out.values()]);
}
