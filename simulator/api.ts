// The /goform/ calls the simulated terminal answers. Each handler receives
// params already validated against the contract and answers the call's
// response fields; a refusal is thrown with refuse() (types.ts), with SPEC §8 codes.
import { randomBytes } from 'node:crypto';
import { CALLS, type CallName } from '../contract/index.ts';
import { LOGIN_LOCKED } from '../contract/codes.ts';
import type { DeviceModel } from './model.ts';
import { fail, refuse, type CallImpl, type Context, type DeviceState, type Reply } from './types.ts';
import { AREA_HANDLERS, pairHandlers, seedSettings } from './settings.ts';
import { settleEnrolment } from './areas/users.ts';
import { userCounts } from './areas/users/list.ts';
import { seedUsers } from './areas/users/seed.ts';
import { recordCount, seedRecords } from './areas/records/generate.ts';
import { checkStrength, handlers as activation } from './activation.ts';
import { handlers as oplog } from './oplog.ts';
import { handlers as liveEvents } from './events.ts';
import { handlers as door } from './door.ts';

export function seedState(model: DeviceModel): DeviceState {
  const users = seedUsers(model);
  // How many records to seed; areas/records.ts generates them on first use.
  const records = seedRecords(model);
  return { admin: { ...model.admin }, LanguageSettingItem: model.LanguageSettingItem, users, records, settings: seedSettings() };
}

async function systemInfo(ctx: Context) {
  const p = ctx.model;
  // An enrolment whose time has come counts.
  await settleEnrolment(ctx);
  const s = ctx.store.get();
  return {
    // The model code (a backup names it, a firmware package must match it); the model's `model` is only the description the CLI prints.
    Model: p.modelCode,
    Build_Version: s.firmware ?? p.Build_Version,
    MaxUser: p.MaxUser,
    MaxFACE: p.MaxFACE,
    MaxFP: p.MaxFP,
    MaxIRIS: p.MaxIRIS,
    MaxCard: p.MaxCard,
    MaxRecord: p.MaxRecord,
    Serial: p.Serial,
    funOption: { ...p.funOption },
    ...userCounts(s.users),
    // No iris templates are kept (the contract's users have none).
    IrisCount: 0,
    RecordCount: recordCount(ctx),
    KernelVersion: p.KernelVersion,
    FSVersion: p.FSVersion,
    EthMAC: p.EthMAC,
    WifiMAC: p.WifiMAC,
  };
}

export const IMPLEMENTED: Partial<Record<CallName, CallImpl>> = {
  ...pairHandlers(),
  ...AREA_HANDLERS,
  ...activation,
  ...oplog,
  ...liveEvents,
  ...door,
  chklogin: {
    handle(ctx, p) {
      const username = String(p.username).trim();
      const password = String(p.password);
      if (!username) refuse(40101);
      if (!password) refuse(40201);
      // The illegal-login lock (login-guard.ts): while closed, the password is not even looked at.
      const closed = ctx.logins.wait(ctx.peer, username, ctx.now());
      if (closed) refuse(LOGIN_LOCKED, { wait: closed, minutes: Math.ceil(closed / 60) });
      const admin = ctx.store.get().admin;
      const wrong = username !== admin.username ? 40301 : password !== admin.password ? 40302 : 0;
      if (wrong) {
        const wait = ctx.logins.failed(ctx.peer, username, ctx.now());
        refuse(wrong, wait ? { wait } : {});
      }
      ctx.logins.succeeded(ctx.peer, username);
      const token = randomBytes(16).toString('hex');
      // In the factory state the factory credential opens a session that may only choose the password.
      const activation = !admin.activated;
      ctx.sessions.set(token, { token, user: username, lastUsed: ctx.now(), activation, id: randomBytes(8).toString('hex'), peer: ctx.peer, since: ctx.now() });
      return { token, funs: [...ctx.model.funs], name: username, ...(activation && { activate: 1 }) };
    },
  },
  logout: {
    handle(ctx) {
      if (ctx.session) ctx.sessions.delete(ctx.session.token);
      return {};
    },
  },
  GetDeviceFunList: { handle: (ctx) => ({ funs: [...ctx.model.funs] }) },
  checkPower: {
    handle(ctx, p) {
      if (p.password !== ctx.store.get().admin.password) refuse(40302);
      return {};
    },
  },
  EditPwd: {
    invalidCodes: { oldpwd: 40202, newpwd: 40202 },
    async handle(ctx, p) {
      const admin = ctx.store.get().admin;
      if (p.userid !== ctx.session?.user || p.userid !== admin.username) refuse(40301, { field: 'userid' });
      if (p.oldpwd !== admin.password) refuse(40302, { field: 'oldpwd' });
      // No way back to a password a brute-force list tries first (the factory one included).
      checkStrength(ctx, String(p.newpwd), 'newpwd');
      await ctx.store.update((s) => {
        s.admin.password = String(p.newpwd);
      });
      return {};
    },
  },
  SetInfoParam: { handle: systemInfo },
  GetInfoParam: { handle: systemInfo },
  getLanList: { handle: (ctx) => ({ lans: [...ctx.model.lans] }) },
  SetLanguageSettingItem: { handle: (ctx) => ({ LanguageSettingItem: ctx.store.get().LanguageSettingItem }) },
  GetLanguageSettingItem: {
    async handle(ctx, p) {
      await ctx.store.update((s) => {
        s.LanguageSettingItem = p.LanguageSettingItem as 0 | 1;
      });
      return {};
    },
  },
};

/** Every contract call the simulator does not implement yet answers this, plainly. */
export function notImplemented(name: string): Reply {
  return fail(10001, { msg: `The simulated terminal does not implement ${name} yet` });
}

export function isCall(name: string): name is CallName {
  return Object.prototype.hasOwnProperty.call(CALLS, name);
}

