// Records, reports, temperature records and maintenance (SPEC §2 Advanced and
// the hidden routes, §3 Record / Report row / Temperature filter, §4, §7
// Maintenance and data). SPEC names the calls and leaves their fields open;
// every choice below is this contract's, and each `doc` says what it is.
import { DAY_OR_EMPTY_PATTERN, DAY_PATTERN, type CallSpec, type Field, type Fields } from './fields.ts';
import { EVENT_FIELDS } from './events.ts';

const DATE = DAY_OR_EMPTY_PATTERN;
const DAY = DAY_PATTERN;

/** Largest firmware package UpdateMachine takes (10101 above it). */
export const FIRMWARE_MAX_BYTES = 16 * 1024 * 1024;
/** Days one report may cover (10005 naming End above it). */
export const REPORT_MAX_DAYS = 31;
/** Seconds the console counts down after a restart before it asks whether the device is back (SPEC §4, §9: 30). */
export const RESTART_COUNTDOWN_S = 30;
/** A body temperature at or above this (°C) is abnormal. */
export const FEVER_C = 37.3;
/**
 * The firmware package (UpdateMachine): a 108-byte header, the payload, then
 * the vendor's signature block.
 *   0   4  magic "TAFW"
 *   4   1  format version, 1
 *   5   3  zero
 *   8  32  model, ASCII, NUL-padded (SetInfoParam's Model)
 *  40  32  firmware version, ASCII, NUL-padded (SetInfoParam's Build_Version after the upgrade)
 *  72   4  payload length in bytes, unsigned little-endian
 *  76  32  SHA-256 of the payload
 * 108   …  payload
 * Text fields: printable ASCII (not empty, no space at either end), then
 * NULs to the end of the field (nothing after the first NUL). A version is
 * an optional letter, then decimal numbers separated by dots ("V2.6.19").
 * One version is newer than another
 * when its numbers, compared left to right as numbers, are greater at the
 * first place they differ; a missing number counts as 0 and the letter does
 * not count (V2.6 = V2.6.0 < V2.6.0.1 < V2.10). docs/API.md, "Firmware
 * package", is generated from this (tools/apidoc.ts).
 *
 * The signature is a block after the payload (SIGNATURE), not a new format
 * version: it covers every byte before it as they are, with no field to
 * blank while signing; the header stays format 1, so a package from before
 * signing is the same bytes without the block, and is told apart as
 * unsigned (10105) rather than as no package (10102).
 */
export const PACKAGE = { magic: 'TAFW', version: 1, header: 108, model: [8, 32], firmware: [40, 32], length: 72, sha256: 76 } as const;
/**
 * The signature block, right after the payload (offsets within the block):
 *   0   4  magic "TASG"
 *   4   1  algorithm, 1: Ed25519 (RFC 8032, pure: over the bytes themselves)
 *   5   3  zero
 *   8   8  key id: the first 8 bytes of SHA-256 of the 32-byte raw public key
 *  16  64  the Ed25519 signature of every byte before the block (header and payload)
 */
export const SIGNATURE = { magic: 'TASG', bytes: 80, ed25519: 1, keyId: [8, 8], value: [16, 64] } as const;

/** Command codes ExecuteCommand runs (/cmd). Anything else: 10006. None runs a shell or any program. */
export const COMMANDS = {
  100: 'Device status: model, firmware, serial, uptime, users and records.',
  101: 'Network status: IP address, subnet mask, gateway, MAC addresses.',
  200: 'Sound the buzzer once (find the terminal in a rack).',
  300: 'Open the door: pulse the relay for the relay delay (SetAccessControl).',
  400: 'Write the device log to its storage (answers the log file name).',
} as const;

const page = {
  Page: { kind: 'int', min: 1, doc: 'Page number from 1. A page past the end answers an empty List with the real Total.' },
  PageSize: { kind: 'int', values: [10, 20, 50, 100], doc: 'Rows per page.' },
} as const satisfies Fields;

const userId = { kind: 'string', pattern: '^[1-9][0-9]{0,9}$', doc: 'User ID (1 to 10 digits).' } as const satisfies Field;
const anyUser = { ...userId, optional: true, pattern: '^$|^[1-9][0-9]{0,9}$', doc: 'Only this user (the exact ID); empty or left out: every user.' } as const satisfies Field;

const recordSearch = {
  UserID: anyUser,
  Start: { kind: 'string', optional: true, pattern: DATE, format: 'date', doc: 'First day, YYYY-MM-DD (device time); empty: from the oldest record.' },
  End: { kind: 'string', optional: true, pattern: DATE, format: 'date', doc: 'Last day, YYYY-MM-DD, included; empty: to the newest. Before Start: 10005 naming End.' },
} as const satisfies Fields;

const time = { kind: 'string', pattern: '^$|^([01][0-9]|2[0-3]):[0-5][0-9]$', doc: '' } as const satisfies Field;

const record = {
  Time: { kind: 'string', doc: 'When, "YYYY-MM-DD HH:MM:SS" (device time).' },
  UserID: userId,
  UserName: { kind: 'string', doc: 'The user\'s name now (empty when the user has been deleted since).' },
  Status: { kind: 'int', min: 0, max: 7, doc: 'Attendance status 0 to 7: its name is the device\'s (SetApplyParam Status0 to Status7: IN, OUT, status1 to status6).' },
} as const satisfies Fields;

const reportSearch = {
  UserID: anyUser,
  Start: { kind: 'string', pattern: DAY, format: 'date', doc: 'First day of the period, YYYY-MM-DD.' },
  End: { kind: 'string', pattern: DAY, format: 'date', doc: `Last day, included; not before Start, and the period at most ${REPORT_MAX_DAYS} days in all, Start and End included (10005 naming End).` },
} as const satisfies Fields;

const reportRow = {
  UserID: userId,
  UserName: record.UserName,
  Date: { kind: 'string', doc: 'The day, YYYY-MM-DD.' },
  FirstIn: { ...time, doc: 'First punch of the day, "HH:MM".' },
  LastOut: { ...time, doc: 'Last counted punch of the day, "HH:MM"; empty when the day has a single counted punch (a missing punch).' },
  InTime: { ...time, doc: 'When the user\'s shift starts (SetShiftsInfo OnDuty); empty for a user with no shift.' },
  OutTime: { ...time, doc: 'When the shift ends (OffDuty); empty for a user with no shift.' },
  Late: { kind: 'int', min: 0, doc: 'Minutes FirstIn is after InTime, when more than the shift\'s LateGrace; else 0.' },
  Early: { kind: 'int', min: 0, doc: 'Minutes LastOut is before OutTime, when more than the shift\'s EarlyGrace; else 0 (also with no LastOut).' },
} as const satisfies Fields;

const none = {} as const satisfies Fields;

const call = <const R extends Fields, const A extends Fields>(method: 'GET' | 'POST', path: string, area: CallSpec['area'], encoding: CallSpec['encoding'], purpose: string, request: R, response: A, more: { auth?: boolean | 'factory'; reply?: 'file' } = {}) =>
  ({ method, path, area, encoding, purpose, request, response, auth: more.auth ?? true, ...(more.reply ? { reply: more.reply } : {}) }) as const;

const XLSX =
  'an .xlsx workbook, answered as the file itself (Content-Disposition attachment). Row 1 holds the column names; every cell is a string cell with the Text number format (\'@\'), column by column, so a value that starts with =, +, -, @, a tab or a carriage return shows as text and never runs as a formula.';

const snKey = (n: number) => ({ kind: 'string', optional: true, pattern: '^$|^[0-9A-Z]{5}$', doc: `Key ${n}: five characters, digits and capital letters; empty: not set yet.` }) as const;
/** A write carries every key, each set: an empty or missing key is refused (10005 / 10003 naming it), so no request clears the device's identity. */
const snKeyWrite = (n: number) => ({ kind: 'string', pattern: '^[0-9A-Z]{5}$', doc: `Key ${n}: five characters, digits and capital letters.` }) as const;
const debug = {
  Mode: { kind: 'int', values: [0, 1, 2], doc: 'Test mode: 0 normal operation, 1 factory test (the terminal shows recognition scores and sensor values), 2 burn-in (it cycles camera, relay and screen until set back to 0).' },
} as const satisfies Fields;

/**
 * The factory test's events at the reader (/test; docs/HIL.md, "Events at
 * the reader"): what QA makes a terminal do that otherwise needs a person at
 * it. Only with a session, in every state.
 */
const readerEvent = {
  // What happens at the reader or the door; an administrator's action on the door (7 to 10) comes only from GetDoorAction.
  Kind: { ...EVENT_FIELDS.Kind, values: [1, 2, 3, 4, 5, 6], doc: 'What happens: 1 a person verified at the reader, 2 a person refused there, 3 the door opened, 4 the door forced, 5 an alarm, 6 the door closed (the live events\' Kinds; 7 to 10, an administrator\'s action on the door, come only from GetDoorAction).' },
  UserID: { ...userId, optional: true, pattern: '^$|^[1-9][0-9]{0,9}$', doc: 'With Kind 1: the user who verifies, who must exist (40401 when no user has that ID). With Kind 2: the user whose attempt is refused, or an ID the device does not have (or empty): someone it does not know, named in the event by nobody. With Kinds 3 to 6: empty or left out (10005 otherwise).' },
  Mode: { ...EVENT_FIELDS.Mode, optional: true, doc: 'With Kinds 1 and 2: how the person presented themselves, 1 to 6 (IdentifyMode numbers; 10003 when left out, 10005 for 0). With Kinds 3 to 6: 0 or left out (10005 otherwise).' },
} as const satisfies Fields;

export const MAINTENANCE_CALLS = {
  searchrecord: call('GET', 'searchrecord', 'Records', 'query', 'One page of attendance records, newest first. The device pages: an index by time and by user makes any page of 100,000 records as fast as the first. The searches may be combined.', { ...page, ...recordSearch }, {
    Total: { kind: 'int', doc: 'Records that match, on every page.' },
    List: { kind: 'objects', doc: 'The records of this page.', fields: record },
  }),
  DownloadRecordForm: call('GET', 'DownloadRecordForm', 'Records', 'query', `Every record the same search finds (no paging), newest first, as ${XLSX} Columns: Time, UserID, UserName, Status (the status name, as SetApplyParam has it).`, recordSearch, none, { reply: 'file' }),
  GetReportFormInfo: call(
    'GET',
    'GetReportFormInfo',
    'Records',
    'query',
    'One page of the attendance report: a row per user and day that has a punch in the period, by user ID (numeric order) then date. The device computes it from its records and its shifts: a punch less than the duplicate punch range (SetKaoqinParam RepeatTime, minutes) after the last counted punch of the day is not counted (so presses close together count once); the first punch is FirstIn, the last counted one (when there are two or more) LastOut; Late and Early compare them, as HH:MM (seconds dropped), with the user\'s shift now; a user with Shift 0, or deleted since, has no InTime or OutTime and Late and Early 0. Days without a punch have no row. Each calendar day is a row of its own, also for a shift that ends the next day (OffDuty before OnDuty): the times compare within the day, so a night shift\'s morning punch starts the next day\'s row (before OnDuty: not late).',
    { ...page, ...reportSearch },
    {
      Total: { kind: 'int', doc: 'Rows in the whole report.' },
      List: { kind: 'objects', doc: 'The rows of this page.', fields: reportRow },
    },
  ),
  DownloadReportForm: call('GET', 'DownloadReportForm', 'Records', 'query', `The whole report for the same period and user (no paging), as ${XLSX} Columns: the row fields, in their order.`, reportSearch, none, { reply: 'file' }),
  searchThermometryRecord: call('GET', 'searchThermometryRecord', 'Records', 'query', `One page of temperature records, newest first (devices with the thermometry function; a device without it, no 'thermometry' in funs, answers 10001). A reading at or above ${FEVER_C} °C is abnormal.`, {
    ...page,
    Type: { kind: 'int', values: [0, 1, 2], doc: 'Filter (SPEC §3): 0 all, 1 abnormality, 2 normal.' },
  }, {
    Total: { kind: 'int', doc: 'Records that match.' },
    List: {
      kind: 'objects',
      doc: 'The records of this page.',
      fields: {
        Time: record.Time,
        UserID: userId,
        UserName: record.UserName,
        Temperature: { kind: 'string', pattern: '^[0-9]{2}\\.[0-9]$', doc: 'Body temperature in °C with one decimal ("36.6").' },
        Abnormal: { kind: 'flag', doc: `1 when Temperature is ${FEVER_C} or more.` },
      },
    },
  }),

  InitMachine: call('GET', 'InitMachine', 'Maintenance', 'query', 'Initialization: every setting back to its factory value, every user, template, photo and record deleted, the administrator password back to the factory one. Answers 0, then restarts as RestartMachine does. The firmware stays, and so do the serial-number keys (SetSNKeyParam: written at the factory, they identify the device) and the operation log (docs/API.md, "Operation log"). The simulated terminal\'s factory state is a fresh store\'s: its profile\'s seed users (seedUsers; none with 0) and no records.', none, none),
  RestartMachine: call(
    'GET',
    'RestartMachine',
    'Maintenance',
    'query',
    `Restart. Answers 0 and then stops answering while it restarts: a terminal is back within ${RESTART_COUNTDOWN_S} s (the simulated one after its profile's restartMs, 3 s by default). Sessions end. The console counts down from ${RESTART_COUNTDOWN_S}, then asks every 2 s until the device answers and opens the login page.`,
    none,
    none,
  ),
  UpdateMachine: call(
    'POST',
    'UpdateMachine',
    'Maintenance',
    'multipart',
    `Firmware upgrade. The package (docs/API.md, "Firmware package") is checked before anything changes: 10101 above ${FIRMWARE_MAX_BYTES} bytes; 10102 when it is not a package (magic, format version, length, a signature block that is not one) or is for another model; 10103 when the payload's SHA-256 does not match the header; 10105 when it carries no signature; 10106 when its signature is not Ed25519; 10107 when the key it names is not one of the device's; 10106 when the signature does not verify with that key; 10104 when its version is not newer than the running one (docs/API.md, "Firmware package", says how versions compare), unless SetWebUpgradeMode opened the forced upgrade in this session (which skips only this last check). A good package answers 0 with its version, and the device restarts into it (as RestartMachine).`,
    { File: { kind: 'file', doc: 'The firmware package.' } },
    { Version: { kind: 'string', doc: 'The version the device runs after the restart.' } },
  ),
  InitAdminCard: call('POST', 'InitAdminCard', 'Maintenance', 'json', 'Initialization card: removes the card of every administrator user (Admin 1 to 16), so that no card opens the terminal\'s own menu until one is enrolled again. Users and their other data stay.', none, {
    Cleared: { kind: 'int', doc: 'Administrator cards removed.' },
  }),
  SetWebUpgradeMode: call(
    'POST',
    'SetWebUpgradeMode',
    'Maintenance',
    'json',
    'Forced upgrade (/up): with the forced-upgrade password (set at the factory; not the administrator\'s), the next UpdateMachine of this session may install any version of the device\'s model, also an older one or the same one again. The forced upgrade stays open for 10 minutes; it ends sooner with the session (sign-out, restart) or once a package is installed. It never lets in a package that is unsigned, badly signed or signed with a key the device does not hold. A package refused for any reason leaves it open. 40302 when the password is wrong.',
    { Password: { kind: 'string', maxLength: 32, pattern: '\\S', doc: 'The forced-upgrade password.' } },
    none,
  ),
  test_takephoto: call('POST', 'test_takephoto', 'Maintenance', 'json', 'Factory test (/test, SPEC §2): the camera takes a photo, answered as the image itself (image/png or image/jpeg). Open without a session only in the factory state; once activated it needs one (see "Activation").', none, none, { auth: 'factory', reply: 'file' }),
  test_event: call(
    'POST',
    'test_event',
    'Maintenance',
    'json',
    'Factory test (/test): a test event, as if it happened at the reader or the door: a person verified (Kind 1) or refused (Kind 2) as if they had presented a finger, face or card, the door opened (3) or forced (4), an alarm (5), the door closed (6). The device announces it to EventStream and SetEventList as any event, numbered and stamped by its clock, and answers it. It does nothing else: no attendance record, no relay, no alarm output, no entry in the operation log; so QA proves the live events on a terminal no one stands at (docs/HIL.md). A session is needed in every state (unlike the other factory test calls).',
    readerEvent,
    EVENT_FIELDS,
  ),
  test_enroll: call(
    'POST',
    'test_enroll',
    'Maintenance',
    'json',
    'Factory test (/test): the enrolment running for UserID (regfp, or getOnlineEnrollStatus with Start) ends now as if the person had presented their face or finger at the reader: a good sample (Good 1) stores the template, a poor one (Good 0) fails the enrolment; the next getOnlineEnrollStatus poll answers 0 or 40501, as after a person. 10001 when no enrolment runs for that user (none at all, another user\'s, or it has ended). It changes nothing else: a stored test template goes as any does (getOnlineEnrollStatus Delete, deleting the user). A session is needed in every state.',
    { UserID: userId, Good: { kind: 'flag', doc: '1: a good sample (the template is stored); 0: a poor one (the enrolment fails).' } },
    none,
  ),
  ExecuteCommand: call('POST', 'ExecuteCommand', 'Maintenance', 'json', 'Run a service command by its code (/cmd). The device runs only the codes of its documented list (docs/API.md, "Command codes") and never a shell or any program; any other code answers 10006.', {
    Code: { kind: 'int', min: 0, max: 99999, doc: 'The command code.' },
  }, {
    Output: { kind: 'string', doc: 'What the command reports, plain text (lines separated by \\n).' },
  }),
  SetSNKeyParam: call('GET', 'SetSNKeyParam', 'Maintenance', 'query', 'Read the serial-number keys (/snkey), key1 to key5.', none, { Key1: snKey(1), Key2: snKey(2), Key3: snKey(3), Key4: snKey(4), Key5: snKey(5) }),
  GetSNKeyParam: call('POST', 'GetSNKeyParam', 'Maintenance', 'json', 'Write the serial-number keys: all five, each set.', { Key1: snKeyWrite(1), Key2: snKeyWrite(2), Key3: snKeyWrite(3), Key4: snKeyWrite(4), Key5: snKeyWrite(5) }, none),
  SetDebugParam: call('GET', 'SetDebugParam', 'Maintenance', 'query', 'Read the test mode (/test; open without a session in the factory state only).', none, debug, { auth: 'factory' }),
  GetDebugParam: call('POST', 'GetDebugParam', 'Maintenance', 'json', 'Set the test mode (/test; open without a session in the factory state only).', debug, none, { auth: 'factory' }),
} as const satisfies Record<string, CallSpec>;
