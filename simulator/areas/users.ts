// Simulated terminal: the Users area (contract/users.ts). Users live in the
// store (DeviceState.users, kept in numeric ID order); lookups go through a
// Map index by UserID, built once per store state (users/list.ts). Photos are
// files beside the store file (<store>.photos/<UserID>), written before the
// change that sets Photo 1. An enrolment runs in memory only (one at a time,
// per simulator), as the terminal's sensor does: a restart or an
// initialization ends it (endEnrolment); `enrolment(store)` is its state, for
// tests. The factory test's test_enroll is the person at the reader: it ends
// the run at once with the sample it names. Spreadsheets: users/sheets.ts; a
// fresh store's users: users/seed.ts.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { PHOTO_MAX_BYTES, USER_FIELDS } from '../../contract/users.ts';
import { ADD_LIMIT, ENROLL_BUSY, ENROLL_FAILED, ENROLL_TIMEOUT } from '../../contract/codes.ts';
import type { EnrollOutcome } from '../model.ts';
import { writeFileAtomic } from '../store.ts';
import { fail, failureOf, refuse, type CallImpl, type Context, type FileReply, type Reply, type Upload, type User } from '../types.ts';
import { INVALID_CODES, find, noUser, save, userCounts, view, type Params } from './users/list.ts';
import { XLSX_TYPE, exportUsers, importUsers } from './users/sheets.ts';

// ---------------------------------------------------------------------------
// Photos

const photoDir = (ctx: Context) => `${ctx.store.file}.photos`;
/** The photo file of a user; the ID has passed the contract's pattern (digits only). */
const photoFile = (ctx: Context, id: string) => join(photoDir(ctx), id);

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** The image type by its first bytes (never by the name or the declared type). */
export function sniffImage(data: Buffer): 'image/jpeg' | 'image/png' | null {
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  if (data.length >= 8 && data.subarray(0, 8).equals(PNG)) return 'image/png';
  return null;
}

function removePhotos(ctx: Context, ids: readonly string[]): void {
  for (const id of ids) rmSync(photoFile(ctx, id), { force: true });
}

// ---------------------------------------------------------------------------
// Enrolment: one at a time on the terminal, in memory only.

interface Run {
  UserID: string;
  /** 0 face, 1 finger. */
  Type: 0 | 1;
  Finger: number;
  started: number;
  ms: number;
  outcome: EnrollOutcome;
  timeoutMs: number;
  /** Set once the outcome is being applied. */
  settling?: Promise<void>;
}

export interface EnrolmentState {
  run: Run | null;
  /** The final answer of the last run, for the next poll. */
  result: Reply | null;
}

const ENROLMENTS = new WeakMap<object, EnrolmentState>();

/** The enrolment state of the simulator that owns `store`. */
export function enrolment(store: object): EnrolmentState {
  let e = ENROLMENTS.get(store);
  if (!e) ENROLMENTS.set(store, (e = { run: null, result: null }));
  return e;
}

/** End the enrolment under way, if any, with nothing to report (a restart, an initialization): it lives in memory only. */
export function endEnrolment(store: object): void {
  const e = enrolment(store);
  e.run = null;
  e.result = null;
}

/** Apply the outcome of the running enrolment once its time has come (ctx.now()); resolves when it is stored. */
export function settleEnrolment(ctx: Context): Promise<void> {
  const e = enrolment(ctx.store);
  const run = e.run;
  if (!run) return Promise.resolve();
  if (run.settling) return run.settling;
  const t = ctx.now() - run.started;
  let code: number;
  if (run.outcome === 'timeout') {
    if (t < run.timeoutMs) return Promise.resolve();
    code = ENROLL_TIMEOUT;
  } else {
    if (t < run.ms) return Promise.resolve();
    code = run.outcome === 'success' ? 0 : ENROLL_FAILED;
  }
  run.settling = (async () => {
    let result: Reply = code ? fail(code) : { retvalue: 0 };
    if (!code) {
      try {
        await ctx.store.update((s) => {
          const u = s.users.find((x) => x.UserID === run.UserID);
          // The user was deleted while the terminal enrolled.
          if (!u) noUser();
          else if (run.Type === 0) u.Face = 1;
          else u.FPMask |= 1 << run.Finger;
        });
      } catch (err) {
        result = failureOf(err) ?? fail(10001);
      }
    }
    // A cancel while this was being stored leaves nothing to report.
    if (e.run === run) {
      e.run = null;
      e.result = result;
    }
  })();
  return run.settling;
}

/** Start an enrolment after the checks every start shares; what differs (support, capacity) comes in `check`. */
async function startEnrolment(ctx: Context, UserID: string, Type: 0 | 1, Finger: number, check: (u: User) => void): Promise<Params> {
  await settleEnrolment(ctx);
  const u = find(ctx, UserID) ?? noUser();
  check(u);
  const e = enrolment(ctx.store);
  if (e.run) refuse(ENROLL_BUSY);
  const { ms, outcome, timeoutMs } = ctx.model.enroll;
  e.run = { UserID, Type, Finger, started: ctx.now(), ms, outcome, timeoutMs };
  e.result = null;
  return {};
}

// ---------------------------------------------------------------------------
// The calls

const text = (v: unknown) => (typeof v === 'string' ? v : '');

export const handlers: Record<string, CallImpl> = {
  userlist: {
    handle(ctx, p) {
      const { sorted } = view(ctx);
      const id = text(p.UserID);
      const start = text(p.Start);
      const end = text(p.End);
      const matches =
        id || start || end
          ? sorted.filter(
              (u) =>
                (!id || u.UserID.startsWith(id)) &&
                // The period reaches Start or later (no end: always) and begins on or before End (no beginning: always).
                (!start || !u.AccessEnd || u.AccessEnd >= start) &&
                (!end || !u.AccessBegin || u.AccessBegin <= end),
            )
          : sorted;
      const size = p.PageSize as number;
      const from = ((p.Page as number) - 1) * size;
      return {
        Total: matches.length,
        List: matches.slice(from, from + size).map((u) => ({ UserID: u.UserID, UserName: u.UserName, CardNo: u.CardNo })),
      };
    },
  },

  GetUserInfo: {
    invalidCodes: INVALID_CODES,
    async handle(ctx, p) {
      await settleEnrolment(ctx);
      return { ...(find(ctx, p.UserID) ?? noUser()) };
    },
  },

  adduser: {
    invalidCodes: INVALID_CODES,
    async handle(ctx, p) {
      await save(ctx, p, p.Replace === 1 ? 'replace' : 'add');
      return {};
    },
  },

  edituser: {
    invalidCodes: INVALID_CODES,
    async handle(ctx, p) {
      await save(ctx, p, 'edit');
      return {};
    },
  },

  deleteuser: {
    invalidCodes: INVALID_CODES,
    async handle(ctx, p) {
      const id = String(p.UserID);
      await ctx.store.update((s) => {
        const at = s.users.findIndex((u) => u.UserID === id);
        if (at < 0) noUser();
        s.users.splice(at, 1);
      });
      removePhotos(ctx, [id]);
      return {};
    },
  },

  deletsomeuser: {
    async handle(ctx, p) {
      const ids = p.UserIDs as string[];
      const pattern = new RegExp(USER_FIELDS.UserID.pattern);
      if (ids.length < 1 || ids.length > 100 || !ids.every((id) => pattern.test(id))) refuse(10005, { field: 'UserIDs' });
      const gone = new Set(ids);
      let deleted: string[] = [];
      if (ids.some((id) => find(ctx, id))) {
        await ctx.store.update((s) => {
          deleted = s.users.filter((u) => gone.has(u.UserID)).map((u) => u.UserID);
          s.users = s.users.filter((u) => !gone.has(u.UserID));
        });
      }
      removePhotos(ctx, deleted);
      return { Deleted: deleted.length };
    },
  },

  regfp: {
    invalidCodes: INVALID_CODES,
    handle(ctx, p) {
      const finger = p.Finger as number;
      return startEnrolment(ctx, String(p.UserID), 1, finger, (u) => {
        if (!ctx.model.funOption.FP) refuse(10005, { field: 'Finger' });
        const total = userCounts(ctx.store.get().users).FPCount;
        // Enrolling an enrolled finger replaces it: no new place is taken.
        if (!(u.FPMask & (1 << finger)) && total >= ctx.model.MaxFP) refuse(ADD_LIMIT, { field: 'Finger' });
      });
    },
  },

  getOnlineEnrollStatus: {
    invalidCodes: INVALID_CODES,
    async handle(ctx, p) {
      const flags = (['Start', 'Cancel', 'Delete'] as const).filter((k) => p[k] === 1);
      if (flags.length > 1) refuse(10005, { field: flags[1] });
      const e = enrolment(ctx.store);

      if (p.Cancel === 1) {
        endEnrolment(ctx.store);
        return {};
      }

      if (p.Delete === 1) {
        const id = String(p.UserID);
        if (p.Type === 1 && p.Finger === undefined) refuse(10003, { field: 'Finger' });
        await settleEnrolment(ctx);
        await ctx.store.update((s) => {
          const u = s.users.find((x) => x.UserID === id) ?? noUser();
          if (p.Type === 0) u.Face = 0;
          else u.FPMask &= ~(1 << (p.Finger as number));
        });
        return {};
      }

      if (p.Start === 1) {
        // Fingerprints start with regfp.
        if (p.Type !== 0 || !ctx.model.funOption.FACE) refuse(10005, { field: 'Type' });
        return startEnrolment(ctx, String(p.UserID), 0, 0, (u) => {
          if (!u.Face && userCounts(ctx.store.get().users).FaceCount >= ctx.model.MaxFACE) refuse(ADD_LIMIT, { field: 'Type' });
        });
      }

      // A poll: "wait" while the terminal enrols, then the outcome once; afterwards 0.
      await settleEnrolment(ctx);
      if (e.run) return { retvalue: 'wait' };
      const result = e.result;
      e.result = null;
      return result ?? {};
    },
  },

  test_enroll: {
    async handle(ctx, p) {
      // An outcome whose time has come is the terminal's own: then nothing runs any more.
      await settleEnrolment(ctx);
      const run = enrolment(ctx.store).run;
      if (!run || run.settling || run.UserID !== p.UserID) refuse(10001);
      // The person presents now: this sample's outcome, stored as the terminal's own would be.
      run.outcome = p.Good === 1 ? 'success' : 'fail';
      run.ms = 0;
      await settleEnrolment(ctx);
      return {};
    },
  },

  UploadUserPhoto: {
    invalidCodes: INVALID_CODES,
    async handle(ctx, p) {
      const id = String(p.UserID);
      const photo = p.Photo as Upload;
      if (!find(ctx, id)) noUser();
      if (photo.data.length > PHOTO_MAX_BYTES) refuse(10101, { field: 'Photo' });
      if (!sniffImage(photo.data)) refuse(10102, { field: 'Photo' });
      // The file first, then the change that says it is there.
      writeFileAtomic(photoFile(ctx, id), photo.data);
      try {
        await ctx.store.update((s) => {
          const u = s.users.find((x) => x.UserID === id) ?? noUser();
          u.Photo = 1;
        });
      } catch (err) {
        if (!find(ctx, id)) removePhotos(ctx, [id]);
        throw err;
      }
      return {};
    },
  },

  GetUserPhoto: {
    invalidCodes: INVALID_CODES,
    handle(ctx, p): FileReply {
      const id = String(p.UserID);
      const u = find(ctx, id);
      if (!u?.Photo) noUser();
      let data: Buffer;
      try {
        data = readFileSync(photoFile(ctx, id));
      } catch {
        return noUser();
      }
      const type = sniffImage(data) ?? noUser();
      return { file: { name: `user-${id}.${type === 'image/png' ? 'png' : 'jpg'}`, type, data } };
    },
  },

  GetExcelAddUser: {
    handle: (ctx, p) => importUsers(ctx, p.File as Upload),
  },

  ExportUserAll: {
    async handle(ctx): Promise<FileReply> {
      await settleEnrolment(ctx);
      return { file: { name: 'users.xlsx', type: XLSX_TYPE, data: await exportUsers(view(ctx).sorted) } };
    },
  },
};
