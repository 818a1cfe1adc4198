// The /goform/ contract: one table of every call the console makes (SPEC §7).
// The console types its requests from it, the simulated terminal validates and
// answers from it, and docs/API.md is generated from it. Nothing restates it.
//
// SPEC §7: "a read is a GET on the path prefixed Set, and a write is a POST on
// the path prefixed Get". Paths here are exactly as the device serves them.

import type { CallSpec, Field, Fields } from './fields.ts';
import { SETTINGS_PAIRS } from './settings/index.ts';
import { USER_CALLS } from './users.ts';
import { MAINTENANCE_CALLS } from './maintenance.ts';
import { CERTIFICATE_CALLS } from './certificate.ts';
import { OPLOG_CALLS } from './oplog.ts';
import { EVENT_CALLS } from './events.ts';
import { SESSION_CALLS } from './sessions.ts';
import { DOOR_CALLS } from './door.ts';
import type { WAIT } from './protocol.ts';
export { FUN_REFRESH_MS, FUN_REFRESH_TIMES, GOFORM_PREFIX, HEADERS, REQUEST_TIMEOUT_MS, SUCCESS, TIMESTAMP_PARAM, WAIT } from './protocol.ts';
export type { Area, CallSpec, Field, FieldKind, Fields } from './fields.ts';

/** Envelope every reply carries besides the call's own response fields (SPEC §8). */
export const ENVELOPE = {
  retvalue: {
    kind: 'int',
    doc: 'Result code: 0 is success; any other number is an error code from the error catalogue; the text "wait" means the operation is still running and the caller should ask again.',
  },
  msg: {
    kind: 'string',
    optional: true,
    doc: 'On failure, the message to show: a message id of the console catalogue (see the error catalogue) or, failing that, plain text shown as is.',
  },
  reboot: {
    kind: 'flag',
    optional: true,
    doc: 'true (or 1) when the device is about to restart: the console shows "The device and web page will restart" and signs out.',
  },
  field: {
    kind: 'string',
    optional: true,
    doc: 'With 10003 or 10005: the request field that was missing or out of range.',
  },
} as const satisfies Fields;

// ---------------------------------------------------------------------------
// Shared field definitions

const none = {} as const satisfies Fields;

const funs = {
  kind: 'strings',
  doc: 'Device function list: the menu keys this terminal supports. Top-level keys: user, network, basicSetting, AccSetting, advSetting. Feature keys gate single screens: face, fingerprint, iris, card, wifi, bluetooth, mqtt, cloud, wiegand, print, thermometry, report, door (a relay: the Door screen).',
} as const satisfies Field;

const systemInfo = {
  Model: { kind: 'string', doc: 'Model name (a settings backup names it; the firmware package must match it).' },
  Build_Version: { kind: 'string', doc: 'Firmware version.' },
  MaxUser: { kind: 'int', doc: 'Maximum number of users.' },
  MaxFACE: { kind: 'int', doc: 'Face template capacity (shown only when funOption.FACE is 1).' },
  MaxFP: { kind: 'int', doc: 'Fingerprint template capacity (shown only when funOption.FP is 1).' },
  MaxIRIS: { kind: 'int', doc: 'Iris template capacity (shown only when funOption.IRIS is 1).' },
  MaxCard: { kind: 'int', doc: 'Card capacity: how many users can have a card (adduser answers 10004 naming CardNo when it is reached).' },
  MaxRecord: { kind: 'int', doc: 'Maximum number of attendance records.' },
  Serial: { kind: 'string', doc: 'Serial number.' },
  funOption: {
    kind: 'object',
    doc: 'Supported biometrics, 1 when supported.',
    fields: {
      FACE: { kind: 'flag', doc: 'Face recognition.' },
      FP: { kind: 'flag', doc: 'Fingerprint.' },
      IRIS: { kind: 'flag', doc: 'Iris.' },
    },
  },
  UserCount: { kind: 'int', doc: 'Enrolled users.' },
  FPCount: { kind: 'int', doc: 'Enrolled fingerprints.' },
  FaceCount: { kind: 'int', doc: 'Enrolled faces.' },
  IrisCount: { kind: 'int', doc: 'Enrolled iris templates.' },
  CardCount: { kind: 'int', doc: 'Users with a card.' },
  RecordCount: { kind: 'int', doc: 'Stored records.' },
  KernelVersion: { kind: 'string', doc: 'Kernel version.' },
  FSVersion: { kind: 'string', doc: 'File system version.' },
  EthMAC: { kind: 'string', doc: 'Ethernet MAC address.' },
  WifiMAC: { kind: 'string', doc: 'Wi-Fi MAC address (empty without Wi-Fi).' },
} as const satisfies Fields;

const sixDigits = {
  kind: 'string',
  pattern: '^[0-9]{6}$',
  doc: 'Six digits (SPEC §5, §9).',
} as const satisfies Field;

// ---------------------------------------------------------------------------
// The table

export const CALLS = {
  // Session (SPEC §7 Session, §4)
  chklogin: {
    method: 'POST',
    path: 'chklogin',
    area: 'Session',
    purpose: 'Sign in. Answers a session token and the device function list.',
    encoding: 'json',
    auth: false,
    request: {
      username: { kind: 'string', maxLength: 32, doc: 'Administrator user name.' },
      password: { kind: 'string', maxLength: 32, doc: 'Administrator password.' },
    },
    response: {
      token: { kind: 'string', doc: 'Session token; the console sends it back in the X-Token header.' },
      funs,
      name: { kind: 'string', doc: 'Display name of the signed-in administrator.' },
      wait: {
        kind: 'int',
        optional: true,
        doc: 'With 40303, and with 40301 or 40302 once the wrong one closed sign-in: the seconds before this address may try again (see "Sign-in attempts").',
      },
      minutes: { kind: 'int', optional: true, doc: 'With 40303: the same wait in whole minutes, rounded up; the message msg.loginLocked shows it.' },
      activate: {
        kind: 'flag',
        optional: true,
        doc: '1: the terminal is in its factory state and this was the factory credential. The session may only choose the administrator password (Activate) or sign out; any other call answers 40105. See "Activation".',
      },
    },
  },
  Activate: {
    method: 'POST',
    path: 'Activate',
    area: 'Session',
    purpose: 'Leave the factory state: set the administrator password, with the session the factory credential opened. Refused with 40202 (field newpwd) when it is not six digits, and with 40204 (field newpwd) for a password a brute-force list tries first. On success the session goes on as a full one and the factory credential no longer signs in. Outside an activation session: 10001.',
    encoding: 'json',
    auth: true,
    request: { newpwd: { ...sixDigits, doc: 'The new administrator password, six digits (see "Activation" for the ones refused).' } },
    response: none,
  },
  logout: {
    method: 'GET',
    path: 'logout',
    area: 'Session',
    purpose: 'End the session; the token stops working.',
    encoding: 'query',
    auth: true,
    request: none,
    response: none,
  },
  GetDeviceFunList: {
    method: 'GET',
    path: 'GetDeviceFunList',
    area: 'Session',
    purpose: 'Device function list, fetched on load and every 30 s up to 10 more times (SPEC §2 Layout).',
    encoding: 'query',
    auth: true,
    request: none,
    response: { funs },
  },
  checkPower: {
    method: 'POST',
    path: 'checkPower',
    area: 'Session',
    purpose: 'Permission check: confirms the administrator password before a sensitive action. Answers 0, or 40302 when the password is wrong.',
    encoding: 'json',
    auth: true,
    request: { password: { kind: 'string', maxLength: 32, doc: 'Administrator password.' } },
    response: none,
  },
  EditPwd: {
    method: 'POST',
    path: 'EditPwd',
    area: 'Session',
    purpose: 'Change the administrator password (modify password dialog, SPEC §5).',
    encoding: 'json',
    auth: true,
    request: {
      userid: { kind: 'string', maxLength: 32, doc: 'User name of the signed-in administrator (read-only in the dialog).' },
      oldpwd: { ...sixDigits, doc: 'Current password, six digits.' },
      newpwd: { ...sixDigits, doc: 'New password, six digits.' },
    },
    response: none,
  },
  // The sessions the device holds (contract/sessions.ts)
  ...SESSION_CALLS,

  // System information (SPEC §3 System info)
  SetInfoParam: {
    method: 'GET',
    path: 'SetInfoParam',
    area: 'System',
    purpose: 'Read system information: capacities, serial, versions, counts. The console keeps the last answer in local storage per user.',
    encoding: 'query',
    auth: true,
    request: none,
    response: systemInfo,
  },
  GetInfoParam: {
    method: 'POST',
    path: 'GetInfoParam',
    area: 'System',
    purpose: 'The write side of the pair. System information has nothing writable: the device recounts its users, templates, cards and records and answers the same fields as SetInfoParam.',
    encoding: 'json',
    auth: true,
    request: none,
    response: systemInfo,
  },

  // Language (SPEC §7 Language)
  getLanList: {
    method: 'POST',
    path: 'getLanList',
    area: 'Language',
    purpose: 'Languages the device offers.',
    encoding: 'json',
    auth: true,
    request: none,
    response: { lans: { kind: 'strings', doc: 'Language codes (en, es, zh, ...).' } },
  },
  SetLanguageSettingItem: {
    method: 'POST',
    path: 'SetLanguageSettingItem',
    area: 'Language',
    purpose: 'Read whether the console may switch language (the language menu shows only when 1). A POST although it reads: the names look swapped (SPEC §7).',
    encoding: 'json',
    auth: true,
    request: none,
    response: { LanguageSettingItem: { kind: 'flag', doc: '1: the language menu is shown.' } },
  },
  GetLanguageSettingItem: {
    method: 'POST',
    path: 'GetLanguageSettingItem',
    area: 'Language',
    purpose: 'Write the language-switch setting.',
    encoding: 'json',
    auth: true,
    request: { LanguageSettingItem: { kind: 'flag', doc: '1: allow switching language.' } },
    response: none,
  },

  // Settings pairs: GET Set<Name> reads, POST Get<Name> writes (contract/settings/).
  ...SETTINGS_PAIRS,
  // The HTTPS certificate (contract/certificate.ts)
  ...CERTIFICATE_CALLS,
  ...EVENT_CALLS,
  // The door (contract/door.ts)
  ...DOOR_CALLS,

  // Records, reports and maintenance (contract/maintenance.ts)
  ...MAINTENANCE_CALLS,
  // The operation log (contract/oplog.ts)
  ...OPLOG_CALLS,

  // Users (contract/users.ts)
  ...USER_CALLS,
} as const satisfies Record<string, CallSpec>;

export type CallName = keyof typeof CALLS;

/** How a call travels: what the console's table of its calls holds (src/api/shipped.ts). */
export type Route = Pick<CallSpec, 'method' | 'path' | 'encoding'>;

// ---------------------------------------------------------------------------
// TypeScript types derived from the table

type Flag = 0 | 1;
type ValueOf<F> = F extends { kind: 'int' }
  ? number
  : F extends { kind: 'flag' }
    ? Flag
    : F extends { kind: 'strings' }
      ? string[]
      : F extends { kind: 'object'; fields: infer S }
        ? ShapeOf<S>
        : F extends { kind: 'objects'; fields: infer S }
          ? ShapeOf<S>[]
          : F extends { kind: 'file' }
            ? Blob
            : F extends { values: readonly (infer V)[] }
            ? V
            : string;

type OptionalKeys<S> = { [K in keyof S]: S[K] extends { optional: true } ? K : never }[keyof S];
export type ShapeOf<S> = { -readonly [K in Exclude<keyof S, OptionalKeys<S>>]: ValueOf<S[K]> } & {
  -readonly [K in OptionalKeys<S>]?: ValueOf<S[K]>;
};

export type RequestOf<N extends CallName> = ShapeOf<(typeof CALLS)[N]['request']>;
export type ResponseOf<N extends CallName> = ShapeOf<(typeof CALLS)[N]['response']>;

export interface Envelope {
  retvalue: number | typeof WAIT;
  msg?: string;
  reboot?: boolean | Flag;
  field?: string;
}

export type Reply<N extends CallName> = Envelope & Partial<ResponseOf<N>>;
/** A reply whose retvalue is 0 carries every response field. */
export type Success<N extends CallName> = Envelope & ResponseOf<N>;
