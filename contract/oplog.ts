// The operation log (issue 25 §3): what the device records of who did what,
// its search and its download. docs/API.md, "Operation log", says what is
// logged and what never is; the simulated terminal's is simulator/oplog.ts.
import { DAY_OR_EMPTY_PATTERN, type CallSpec, type Fields } from './fields.ts';

/** Entries the log keeps: a ring, the oldest dropped first. */
export const OPLOG_SIZE = 1000;

/** The kinds of entry, by number (Kind); the text is the download's Kind column. */
export const OPLOG_KINDS = {
  1: 'Sign-in',
  2: 'Failed sign-in',
  3: 'Sign-in locked',
  4: 'Sign-out',
  5: 'Settings written',
  6: 'Users added',
  7: 'User edited',
  8: 'Users deleted',
  9: 'Firmware upgrade',
  10: 'Restart',
  11: 'Initialization',
  12: 'Backup',
  13: 'Restore',
  14: 'Door',
} as const;
export type OplogKind = keyof typeof OPLOG_KINDS;
export const BACKUP = 12;
export const RESTORE = 13;
export const DOOR = 14;

const kinds = Object.entries(OPLOG_KINDS).map(([k, v]) => `${k} ${v}`).join(', ');
const DATE = DAY_OR_EMPTY_PATTERN;

const search = {
  Kind: { kind: 'int', min: 0, max: DOOR, doc: `0: every kind; else only entries of this kind (${kinds}).` },
  Start: { kind: 'string', optional: true, pattern: DATE, format: 'date', doc: 'First day, YYYY-MM-DD (device time); empty: from the oldest entry.' },
  End: { kind: 'string', optional: true, pattern: DATE, format: 'date', doc: 'Last day, YYYY-MM-DD, included; empty: to the newest. Before Start: 10005 naming End.' },
} as const satisfies Fields;

const entry = {
  Time: { kind: 'string', doc: 'When, "YYYY-MM-DD HH:MM:SS" (device time, as records have it).' },
  Kind: { kind: 'int', min: 1, max: DOOR, doc: `What happened: ${kinds}.` },
  User: { kind: 'string', doc: 'The account of the session; for a failed sign-in or a lock, the user name that was typed (at most 32 characters). Empty for a call made without a session (the factory test\'s).' },
  Address: { kind: 'string', doc: 'The IP address the request came from.' },
  Detail: { kind: 'string', doc: 'Device text, shown as text: the call and the names of the fields it changed (settings), the user IDs (users), the versions (upgrade), the reason (failed sign-in), the action (door). Never a value of a setting, a password, a key or a certificate.' },
} as const satisfies Fields;

const XLSX = 'an .xlsx workbook answered as the file itself (Content-Disposition attachment), every cell a string cell with the Text number format, as DownloadRecordForm writes it. Columns: Time, Kind (the kind\'s English name), User, Address, Detail.';

export const OPLOG_CALLS = {
  searchOperationLog: {
    method: 'GET',
    path: 'searchOperationLog',
    area: 'Maintenance',
    purpose: `One page of the operation log, newest first (docs/API.md, "Operation log"): at most the last ${OPLOG_SIZE} entries.`,
    encoding: 'query',
    auth: true,
    request: {
      Page: { kind: 'int', min: 1, doc: 'Page number from 1. A page past the end answers an empty List with the real Total.' },
      PageSize: { kind: 'int', values: [10, 20, 50, 100], doc: 'Rows per page.' },
      ...search,
    },
    response: {
      Total: { kind: 'int', doc: 'Entries that match, on every page.' },
      List: { kind: 'objects', doc: 'The entries of this page.', fields: entry },
    },
  },
  DownloadOperationLog: {
    method: 'GET',
    path: 'DownloadOperationLog',
    area: 'Maintenance',
    purpose: `Every entry the same search finds (no paging), newest first, as ${XLSX}`,
    encoding: 'query',
    auth: true,
    reply: 'file',
    request: search,
    response: {},
  },
  noteOperation: {
    method: 'POST',
    path: 'noteOperation',
    area: 'Maintenance',
    purpose: `The console says it made a settings backup (Kind ${BACKUP}) or starts a restore (Kind ${RESTORE}): the device sees only reads and writes, so it logs these as the console says, with the session's account and address. A restore's writes are then logged each as "Settings written".`,
    encoding: 'json',
    auth: true,
    request: { Kind: { kind: 'int', values: [BACKUP, RESTORE], doc: `${BACKUP} backup, ${RESTORE} restore.` } },
    response: {},
  },
} as const satisfies Record<string, CallSpec>;
