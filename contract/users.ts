// The Users calls (SPEC §3 User, §5, §7 Users): fields, ranges and the
// choices SPEC leaves open, written once. The console, the simulated
// terminal and docs/API.md all read them from here.
import { DAY_OR_EMPTY_PATTERN, type CallSpec, type Field, type Fields } from './fields.ts';

const DATE = DAY_OR_EMPTY_PATTERN;

/** Largest face photo the simulated terminal takes (10101 above it). */
export const PHOTO_MAX_BYTES = 200 * 1024;
/** Largest spreadsheet GetExcelAddUser takes (10101 above it). */
export const SHEET_MAX_BYTES = 1024 * 1024;
/** Rows one import may hold (10101 above it). */
export const SHEET_MAX_ROWS = 5000;
/** Fingers of SPEC §3, in slot order 0 to 9. */
export const FINGERS = ['left little', 'left ring', 'left middle', 'left forefinger', 'left thumb', 'right thumb', 'right forefinger', 'right middle', 'right ring', 'right little'] as const;

const userId = {
  kind: 'string',
  pattern: '^[1-9][0-9]{0,9}$',
  doc: 'User ID: 1 to 10 digits, no leading zero (40401 otherwise). The key of a user.',
} as const satisfies Field;

/** The fields an administrator sets (add, edit, a spreadsheet row). */
export const USER_FIELDS = {
  UserID: userId,
  UserName: { kind: 'string', maxLength: 32, pattern: '\\S', doc: 'Name, 1 to 32 characters, any script; not only spaces. Shown as text, never as markup.' },
  Password: { kind: 'string', optional: true, pattern: '^[0-9]{0,8}$', doc: 'Password typed on the terminal: up to 8 digits; empty for none (40404 otherwise; 40405 when another user has it, as the terminal identifies by password alone).' },
  CardNo: { kind: 'string', optional: true, pattern: '^$|^(0|[1-9][0-9]{0,9})$', doc: 'Card number in decimal, up to 10 digits (4294967295 at most); empty for none. 40403 when another user has the card.' },
  CardType: { kind: 'int', optional: true, values: [0, 1], doc: 'Card type: 0 ID card (125 kHz), 1 IC card (13.56 MHz). 0 when left out.' },
  Admin: { kind: 'int', min: 0, max: 16, doc: 'Role: 0 user, 1 to 16 administrator levels (SPEC §3, §6).' },
  Group: { kind: 'int', values: [0, 1], doc: 'Time-zone group: 0 NC (always closed), 1 NO (always open).' },
  IdentifyMode: { kind: 'int', values: [0, 1, 2, 3, 4, 5, 6], doc: 'How this user is identified: 0 the device default (SetIdentifyParam), 1 fingerprint, 2 face, 3 card, 4 card and fingerprint, 5 card and face, 6 card and password.' },
  Shift: { kind: 'int', min: 0, max: 8, doc: 'Shift the user follows, 1 to 8 (SetShiftsInfo); 0 none.' },
  AccessBegin: { kind: 'string', optional: true, pattern: DATE, format: 'date', doc: 'First day the user may pass, YYYY-MM-DD; empty: no limit.' },
  AccessEnd: { kind: 'string', optional: true, pattern: DATE, format: 'date', doc: 'Last day the user may pass, YYYY-MM-DD, not before AccessBegin (10005 naming AccessEnd); empty: no limit.' },
} as const satisfies Fields;

/** What the device reports about a user's enrolment (read only). */
const ENROLMENT = {
  Face: { kind: 'flag', doc: '1 when a face template is enrolled.' },
  FPMask: { kind: 'int', min: 0, max: 1023, doc: 'Enrolled fingers: bit n set when finger n is enrolled (0 left little ... 4 left thumb, 5 right thumb ... 9 right little).' },
  Photo: { kind: 'flag', doc: '1 when a face photo is stored (GetUserPhoto answers it).' },
} as const satisfies Fields;

const listItem = {
  UserID: userId,
  UserName: USER_FIELDS.UserName,
  CardNo: USER_FIELDS.CardNo,
} as const satisfies Fields;

const finger = { kind: 'int', min: 0, max: 9, doc: 'Finger slot, 0 to 9 (see FPMask).' } as const satisfies Field;

const one = { UserID: { ...userId, doc: 'The user.' } } as const satisfies Fields;

export const USER_CALLS = {
  userlist: {
    method: 'GET',
    path: 'userlist',
    area: 'Users',
    purpose: 'One page of the user list, in user ID order (numeric). The device pages: the console never downloads every user. Both searches narrow the same list and may be combined.',
    encoding: 'query',
    auth: true,
    request: {
      Page: { kind: 'int', min: 1, doc: 'Page number from 1. A page past the end answers an empty List with the real Total.' },
      PageSize: { kind: 'int', values: [10, 20, 50, 100], doc: 'Users per page.' },
      UserID: { kind: 'string', optional: true, pattern: '^[0-9]{0,10}$', doc: 'Search by user ID: only IDs that start with these digits.' },
      Start: { kind: 'string', optional: true, pattern: DATE, format: 'date', doc: 'Search by time: only users whose access period (AccessBegin to AccessEnd) reaches this day or later. A user with no AccessEnd always does.' },
      End: { kind: 'string', optional: true, pattern: DATE, format: 'date', doc: 'Search by time: only users whose access period starts on or before this day. A user with no AccessBegin always does.' },
    },
    response: {
      Total: { kind: 'int', doc: 'Users that match the search, on every page.' },
      List: { kind: 'objects', doc: 'The users of this page.', fields: listItem },
    },
  },
  GetUserInfo: {
    method: 'POST',
    path: 'GetUserInfo',
    area: 'Users',
    purpose: 'Read one user: every field and what is enrolled. 40401 when there is no such user.',
    encoding: 'json',
    auth: true,
    request: one,
    response: { ...USER_FIELDS, ...ENROLMENT },
  },
  adduser: {
    method: 'POST',
    path: 'adduser',
    area: 'Users',
    purpose:
      'Add a user. 40402 when the ID exists: the console asks "The user already exists, do you want to add it again?" and, on yes, sends the same with Replace 1, which replaces the fields (templates and photo stay). 10004 (msg.addUpToLimit, naming UserID) when MaxUser users exist, or naming CardNo when the card store is full. 40403 / 40405 when another user has the card / password, naming the field.',
    encoding: 'json',
    auth: true,
    request: { ...USER_FIELDS, Replace: { kind: 'flag', optional: true, doc: '1: replace the user with this ID if there is one.' } },
    response: none(),
  },
  edituser: {
    method: 'POST',
    path: 'edituser',
    area: 'Users',
    purpose: 'Save a user (the ID is the key and does not change). 40401 when there is no such user; 40403 / 40405 as adduser.',
    encoding: 'json',
    auth: true,
    request: USER_FIELDS,
    response: none(),
  },
  deleteuser: {
    method: 'POST',
    path: 'deleteuser',
    area: 'Users',
    purpose: 'Delete one user with their templates and photo. 40401 when there is no such user.',
    encoding: 'json',
    auth: true,
    request: one,
    response: none(),
  },
  deletsomeuser: {
    method: 'POST',
    path: 'deletsomeuser',
    area: 'Users',
    purpose: 'Delete the selected users (the path is spelled as the firmware has it). IDs that do not exist are passed over; nothing is deleted when one ID is malformed (10005).',
    encoding: 'json',
    auth: true,
    request: { UserIDs: { kind: 'strings', doc: 'User IDs, 1 to 100 of them.' } },
    response: { Deleted: { kind: 'int', doc: 'How many users were deleted.' } },
  },
  regfp: {
    method: 'POST',
    path: 'regfp',
    area: 'Users',
    purpose:
      'Start fingerprint enrolment of one finger on the terminal; the person places the finger there. Then poll getOnlineEnrollStatus. Enrolling a finger that is enrolled replaces it. 40401 when no user has that UserID; 10004 (field Finger) when MaxFP templates exist; 40504 while another enrolment runs; 10005 naming Finger on a device without fingerprints.',
    encoding: 'json',
    auth: true,
    request: { UserID: one.UserID, Finger: finger },
    response: none(),
  },
  getOnlineEnrollStatus: {
    method: 'POST',
    path: 'getOnlineEnrollStatus',
    area: 'Users',
    purpose:
      'Face enrolment and the state of any enrolment. Start 1 with Type 0 starts face enrolment on the terminal (10004 naming Type when MaxFACE faces exist; 40504 while another runs; 10005 naming Type on a device without face). Without Start it answers retvalue "wait" while the terminal enrols, 0 when the template is stored, 40501 when enrolment failed, 40502 when the terminal gave up after 30 s with no one there (SPEC §4 countdown). Cancel 1 stops it (the administrator cancelled); it then answers 0. The outcome is stored when its time is up, whether or not anyone polls, and answered to the next poll; after that, polling with nothing running answers 0. A user deleted while enrolling makes the outcome 40401. Delete 1 removes an enrolled template (Type 1 with Finger: one finger; Type 0: the face).',
    encoding: 'json',
    auth: true,
    request: {
      UserID: one.UserID,
      Type: { kind: 'int', values: [0, 1], doc: '0 face, 1 fingerprint.' },
      Finger: { ...finger, optional: true, doc: 'With Type 1 and Delete: the finger to delete.' },
      Start: { kind: 'flag', optional: true, doc: '1: start face enrolment (Type 0). Fingerprints start with regfp.' },
      Cancel: { kind: 'flag', optional: true, doc: '1: stop the running enrolment.' },
      Delete: { kind: 'flag', optional: true, doc: '1: delete the template named by Type (and Finger).' },
    },
    response: none(),
  },
  UploadUserPhoto: {
    method: 'POST',
    path: 'UploadUserPhoto',
    area: 'Users',
    purpose: `Store a user's face photo (SPEC §2 photo upload; the call is this contract's choice). The device checks the bytes, not the file name: JPEG or PNG only (10102 otherwise); at most ${PHOTO_MAX_BYTES} bytes (10101 above). 40401 when there is no such user.`,
    encoding: 'multipart',
    auth: true,
    request: { UserID: one.UserID, Photo: { kind: 'file', doc: `The image: JPEG or PNG, at most ${PHOTO_MAX_BYTES} bytes.` } },
    response: none(),
  },
  GetUserPhoto: {
    method: 'GET',
    path: 'GetUserPhoto',
    area: 'Users',
    purpose: 'The stored face photo of a user, as the image itself (image/jpeg or image/png). 40401 (JSON envelope) when there is no such user or no photo.',
    encoding: 'query',
    auth: true,
    reply: 'file',
    request: one,
    response: none(),
  },
  GetExcelAddUser: {
    method: 'POST',
    path: 'GetExcelAddUser',
    area: 'Users',
    purpose: `Bulk add from a spreadsheet: an .xlsx workbook (its first sheet) or a UTF-8 .csv file, recognised by their bytes. Row 1 names the columns with the field names of adduser (UserID, UserName, Password, CardNo, CardType, Admin, Group, IdentifyMode, Shift, AccessBegin, AccessEnd), in any order; UserID and UserName are needed, the rest may be left out (0 or empty). ExportUserAll writes this layout. Each later row is one user, checked as adduser checks it: a refused row changes nothing, the good rows are added. An ID that exists is refused (40402), never replaced. A blank cell means the field was left out (0 or empty). Columns with a blank header are ignored. 10102 for a file that is neither, an empty file, a column the contract does not name or a column named twice (naming it); 10003 when no file part came; 10101 above ${SHEET_MAX_BYTES} bytes or ${SHEET_MAX_ROWS} rows.`,
    encoding: 'multipart',
    auth: true,
    request: { File: { kind: 'file', doc: 'The .xlsx or .csv file.' } },
    response: {
      Added: { kind: 'int', doc: 'Rows added.' },
      Refused: {
        kind: 'objects',
        doc: 'Rows refused, in row order (at most 200 listed; Added and the count of every refused row are still right).',
        fields: {
          Row: { kind: 'int', doc: 'Row number in the sheet (1 is the header).' },
          Field: { kind: 'string', doc: 'The column at fault.' },
          Code: { kind: 'int', doc: 'The code adduser would answer (10003, 10005, 40401, 40402, 40403, 40405, 10004, ...).' },
          Msg: { kind: 'string', doc: 'The msg adduser would answer with that code (err.40402, msg.addUpToLimit, ...): the console shows it as it shows a reply\'s msg.' },
        },
      },
      RefusedCount: { kind: 'int', doc: 'Every refused row, also past the 200 listed.' },
    },
  },
  ExportUserAll: {
    method: 'POST',
    path: 'ExportUserAll',
    area: 'Users',
    purpose:
      'Every user as an .xlsx workbook (one sheet "Users", header row of field names as GetExcelAddUser reads them, one row per user in ID order), answered as the file itself with Content-Disposition attachment. Every column but Password: the PINs that open the door do not leave the device in a file (an export imported again adds its users without passwords). Text fields are string cells with the Text number format (\'@\'), and their whole column carries it: an ID or card number keeps its digits, and a value that starts with =, +, -, @, a tab or a carriage return shows as text and never runs as a formula, also when edited later. (The quote-prefix style is not written: the workbook library does not support it; the Text format does the same job.)',
    encoding: 'json',
    auth: true,
    reply: 'file',
    request: {},
    response: none(),
  },
} as const satisfies Record<string, CallSpec>;

function none(): Fields {
  return {};
}
